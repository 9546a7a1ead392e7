package io.ricochet.loadgen.protobuf;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.Message;
import io.ricochet.loadgen.workload.Context;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

/**
 * A message given as JSON whose string values may hold placeholders. The JSON is parsed once, with the placeholders
 * filled in for a first request; each request then sets only the templated fields in a copy of that message, so no
 * JSON is read per request (except for values JsonFormat alone can read, see {@link TemplatedField}). When they all
 * stand in the top message, its bytes are not even made from a message: see {@link AppendedFields}. Without
 * placeholders, the message and its bytes are made once.
 */
final class TemplatedMessage {
    private final DynamicMessage base;
    private final ByteString baseBytes;
    private final TemplatedField[] fields;
    /** The bytes without a message in between, when every templated field is a singular one of the top message. */
    private final AppendedFields appended;

    private TemplatedMessage(DynamicMessage base, List<TemplatedField> fields) {
        this.base = base;
        this.baseBytes = base.toByteString();
        this.fields = fields.toArray(new TemplatedField[0]);
        this.appended = this.fields.length == 0 ? null : AppendedFields.of(base, this.fields);
    }

    /**
     * {@code json} as a {@code type}, checked now: a value that does not fit the type, or a placeholder that is not one,
     * is an {@link IllegalArgumentException} naming it.
     */
    static TemplatedMessage parse(MessageType type, ObjectNode json, long seed) {
        Context first = new FirstRequest();
        DynamicMessage base = ProtoJson.parse(type, (ObjectNode) JsonText.expand(json, seed, first));
        List<TemplatedField> fields = new ArrayList<>();
        // After the parse, so every key names a field and every value has the shape its field needs.
        collect(type, type.descriptor(), json, FieldPath.root(), seed, fields);
        TemplatedMessage message = new TemplatedMessage(base, fields);
        // Each templated value made once both ways: one that cannot be set fails now, not at every request.
        message.message(first);
        message.bytes(first);
        return message;
    }

    private static void collect(MessageType type, Descriptor descriptor, ObjectNode json, FieldPath at, long seed,
                                List<TemplatedField> fields) {
        for (Map.Entry<String, JsonNode> property : json.properties()) {
            JsonNode value = property.getValue();
            if (!JsonText.hasPlaceholder(value)) {
                continue;
            }
            FieldDescriptor field = ProtoJson.field(descriptor, property.getKey());
            if (field.isMapField()) {
                int index = 0; // JsonFormat adds a map's entries in the order of the JSON
                for (Map.Entry<String, JsonNode> entry : value.properties()) {
                    if (JsonText.hasPlaceholder(entry.getValue())) {
                        value(type, at.mapValue(field, index, entry.getKey()), entry.getValue(), seed, fields);
                    }
                    index++;
                }
            } else if (field.isRepeated()) {
                for (int i = 0; i < value.size(); i++) {
                    if (JsonText.hasPlaceholder(value.get(i))) {
                        value(type, at.element(field, i), value.get(i), seed, fields);
                    }
                }
            } else {
                value(type, at.field(field), value, seed, fields);
            }
        }
    }

    private static void value(MessageType type, FieldPath path, JsonNode value, long seed,
                              List<TemplatedField> fields) {
        if (ProtoJson.isPlainMessage(path.last())) {
            collect(type, path.last().getMessageType(), (ObjectNode) value, path, seed, fields);
        } else {
            fields.add(TemplatedField.of(type, path, value, seed));
        }
    }

    boolean hasPlaceholders() {
        return fields.length > 0;
    }

    /** The message for {@code request}. */
    Message message(Context request) {
        if (fields.length == 0) {
            return base;
        }
        Message.Builder builder = base.toBuilder();
        for (TemplatedField field : fields) {
            field.apply(request, builder);
        }
        return builder.build();
    }

    /** The message's bytes for {@code request}: the same instance every time without placeholders. */
    ByteString bytes(Context request) {
        if (fields.length == 0) {
            return baseBytes;
        }
        return appended != null ? appended.bytes(request) : message(request).toByteString();
    }

    /** The request the JSON is first read for: numbers 0, the time now. */
    private static final class FirstRequest implements Context {
        private final long now = System.currentTimeMillis() * 1_000;

        @Override
        public long connection() {
            return 0;
        }

        @Override
        public long sequence() {
            return 0;
        }

        @Override
        public int worker() {
            return 0;
        }

        @Override
        public RandomGenerator random() {
            return new SplittableRandom(0);
        }

        @Override
        public long sendTimeMicros() {
            return now;
        }
    }
}
