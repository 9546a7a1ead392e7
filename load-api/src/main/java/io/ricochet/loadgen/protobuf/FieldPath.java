package io.ricochet.loadgen.protobuf;

import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import com.google.protobuf.MessageOrBuilder;
import java.util.Arrays;

/**
 * Where one value sits in a message: the fields from the top, with the element's index for a repeated field (a map is
 * a repeated field of entries, and its value the entry's {@code value} field). Named as a user writes it:
 * {@code inner.deep.id}, {@code lines[2].sku}, {@code by_sku["a"].quantity}.
 */
final class FieldPath {
    private static final int SINGULAR = -1;

    private final FieldDescriptor[] fields;
    private final int[] indices;
    private final String name;

    private FieldPath(FieldDescriptor[] fields, int[] indices, String name) {
        this.fields = fields;
        this.indices = indices;
        this.name = name;
    }

    static FieldPath root() {
        return new FieldPath(new FieldDescriptor[0], new int[0], "");
    }

    /** The singular {@code field} of the message here. */
    FieldPath field(FieldDescriptor field) {
        return then(field, SINGULAR, dot() + field.getName());
    }

    /** Element {@code index} of the repeated {@code field} of the message here. */
    FieldPath element(FieldDescriptor field, int index) {
        return then(field, index, dot() + field.getName() + "[" + index + "]");
    }

    /** The value of entry {@code index}, of key {@code key}, of the map {@code field} of the message here. */
    FieldPath mapValue(FieldDescriptor field, int index, String key) {
        FieldPath entry = then(field, index, dot() + field.getName() + "[" + JsonText.quote(key) + "]");
        return entry.then(field.getMessageType().findFieldByName("value"), SINGULAR, entry.name);
    }

    private String dot() {
        return name.isEmpty() ? name : name + ".";
    }

    private FieldPath then(FieldDescriptor field, int index, String name) {
        FieldDescriptor[] f = Arrays.copyOf(fields, fields.length + 1);
        int[] i = Arrays.copyOf(indices, indices.length + 1);
        f[fields.length] = field;
        i[indices.length] = index;
        return new FieldPath(f, i, name);
    }

    /** The field that holds the value. */
    FieldDescriptor last() {
        return fields[fields.length - 1];
    }

    /** Whether the value is a singular field of the top message. */
    boolean isTopLevel() {
        return fields.length == 1 && indices[0] == SINGULAR;
    }

    /** Whether the value is an element of {@link #last()}, a repeated field. */
    boolean isElement() {
        return indices[indices.length - 1] != SINGULAR;
    }

    /**
     * Puts {@code value} here in {@code root}. The messages on the way are rebuilt with it, as messages are immutable;
     * they exist already, as the message being built was parsed from JSON that reaches this path.
     */
    void set(Message.Builder root, Object value) {
        put(root, 0, fields.length == 1 ? value : with((Message) get(root, 0), 1, value));
    }

    private Message with(Message message, int depth, Object value) {
        Message.Builder builder = message.toBuilder();
        put(builder, depth, depth == fields.length - 1 ? value : with((Message) get(builder, depth), depth + 1, value));
        return builder.build();
    }

    private Object get(MessageOrBuilder message, int depth) {
        return indices[depth] == SINGULAR
                ? message.getField(fields[depth])
                : message.getRepeatedField(fields[depth], indices[depth]);
    }

    private void put(Message.Builder builder, int depth, Object value) {
        if (indices[depth] == SINGULAR) {
            builder.setField(fields[depth], value);
        } else {
            builder.setRepeatedField(fields[depth], indices[depth], value);
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
