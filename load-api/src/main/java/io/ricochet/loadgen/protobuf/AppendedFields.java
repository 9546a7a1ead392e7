package io.ricochet.loadgen.protobuf;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.MessageLite;
import com.google.protobuf.UnsafeByteOperations;
import io.ricochet.loadgen.workload.Context;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;

/**
 * The bytes of a message whose templated fields all stand in the top message, singular: the rest is encoded once, and
 * each request writes only its templated fields after it. Protobuf's wire format lets fields come in any order, and a
 * field the rest no longer holds comes once, so the bytes parse as the message the builder would make; only the
 * order of fields differs. It spares each request a copy of the whole message and its encoding by reflection.
 */
final class AppendedFields {
    private final byte[] rest;
    private final TemplatedField[] fields;

    private AppendedFields(byte[] rest, TemplatedField[] fields) {
        this.rest = rest;
        this.fields = fields;
    }

    /** The appended form of {@code base} with {@code fields}, or null if a field stands deeper or in a list. */
    static AppendedFields of(DynamicMessage base, TemplatedField[] fields) {
        DynamicMessage.Builder rest = base.toBuilder();
        for (TemplatedField field : fields) {
            if (!field.path().isTopLevel() || field.path().last().getType() == FieldDescriptor.Type.GROUP) {
                return null;
            }
            rest.clearField(field.path().last());
        }
        return new AppendedFields(rest.build().toByteArray(), fields);
    }

    ByteString bytes(Context request) {
        Object[] values = new Object[fields.length];
        int size = rest.length;
        for (int i = 0; i < fields.length; i++) {
            values[i] = fields[i].value(request);
            size += size(fields[i].path().last(), values[i]);
        }
        byte[] out = Arrays.copyOf(rest, size);
        CodedOutputStream tail = CodedOutputStream.newInstance(out, rest.length, size - rest.length);
        try {
            for (int i = 0; i < fields.length; i++) {
                write(tail, fields[i].path().last(), values[i]);
            }
            tail.checkNoSpaceLeft();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // an array sized for what is written, so nothing fails
        }
        return UnsafeByteOperations.unsafeWrap(out);
    }

    private static int size(FieldDescriptor field, Object value) {
        int n = field.getNumber();
        return switch (field.getType()) {
            case DOUBLE -> CodedOutputStream.computeDoubleSize(n, (Double) value);
            case FLOAT -> CodedOutputStream.computeFloatSize(n, (Float) value);
            case INT64 -> CodedOutputStream.computeInt64Size(n, (Long) value);
            case UINT64 -> CodedOutputStream.computeUInt64Size(n, (Long) value);
            case SINT64 -> CodedOutputStream.computeSInt64Size(n, (Long) value);
            case FIXED64 -> CodedOutputStream.computeFixed64Size(n, (Long) value);
            case SFIXED64 -> CodedOutputStream.computeSFixed64Size(n, (Long) value);
            case INT32 -> CodedOutputStream.computeInt32Size(n, (Integer) value);
            case UINT32 -> CodedOutputStream.computeUInt32Size(n, (Integer) value);
            case SINT32 -> CodedOutputStream.computeSInt32Size(n, (Integer) value);
            case FIXED32 -> CodedOutputStream.computeFixed32Size(n, (Integer) value);
            case SFIXED32 -> CodedOutputStream.computeSFixed32Size(n, (Integer) value);
            case BOOL -> CodedOutputStream.computeBoolSize(n, (Boolean) value);
            case STRING -> CodedOutputStream.computeStringSize(n, (String) value);
            case BYTES -> CodedOutputStream.computeBytesSize(n, (ByteString) value);
            case ENUM -> CodedOutputStream.computeEnumSize(n, ((EnumValueDescriptor) value).getNumber());
            case MESSAGE -> CodedOutputStream.computeMessageSize(n, (MessageLite) value);
            case GROUP -> throw new IllegalStateException("groups are not appended");
        };
    }

    private static void write(CodedOutputStream out, FieldDescriptor field, Object value) throws IOException {
        int n = field.getNumber();
        switch (field.getType()) {
            case DOUBLE -> out.writeDouble(n, (Double) value);
            case FLOAT -> out.writeFloat(n, (Float) value);
            case INT64 -> out.writeInt64(n, (Long) value);
            case UINT64 -> out.writeUInt64(n, (Long) value);
            case SINT64 -> out.writeSInt64(n, (Long) value);
            case FIXED64 -> out.writeFixed64(n, (Long) value);
            case SFIXED64 -> out.writeSFixed64(n, (Long) value);
            case INT32 -> out.writeInt32(n, (Integer) value);
            case UINT32 -> out.writeUInt32(n, (Integer) value);
            case SINT32 -> out.writeSInt32(n, (Integer) value);
            case FIXED32 -> out.writeFixed32(n, (Integer) value);
            case SFIXED32 -> out.writeSFixed32(n, (Integer) value);
            case BOOL -> out.writeBool(n, (Boolean) value);
            case STRING -> out.writeString(n, (String) value);
            case BYTES -> out.writeBytes(n, (ByteString) value);
            case ENUM -> out.writeEnum(n, ((EnumValueDescriptor) value).getNumber());
            case MESSAGE -> out.writeMessage(n, (MessageLite) value);
            case GROUP -> throw new IllegalStateException("groups are not appended");
        }
    }
}
