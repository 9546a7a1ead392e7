package io.ricochet.loadgen.protobuf;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import java.util.Map;
import java.util.Set;

/** Messages from JSON through protobuf's JsonFormat, with its errors made to name the field and read as one line. */
final class ProtoJson {
    /** The types whose JSON is not an object of their fields (a timestamp is a string), so placeholders stop there. */
    private static final Set<String> SPECIAL_JSON = Set.of("google.protobuf.Any", "google.protobuf.Duration",
            "google.protobuf.FieldMask", "google.protobuf.Timestamp", "google.protobuf.Struct", "google.protobuf.Value",
            "google.protobuf.ListValue", "google.protobuf.DoubleValue", "google.protobuf.FloatValue",
            "google.protobuf.Int64Value", "google.protobuf.UInt64Value", "google.protobuf.Int32Value",
            "google.protobuf.UInt32Value", "google.protobuf.BoolValue", "google.protobuf.StringValue",
            "google.protobuf.BytesValue");

    private ProtoJson() {
    }

    /** The message {@code json} gives; an {@link IllegalArgumentException} naming the field that does not fit. */
    static DynamicMessage parse(MessageType type, ObjectNode json) {
        DynamicMessage.Builder builder = DynamicMessage.newBuilder(type.descriptor());
        try {
            type.parser().merge(json.toString(), builder);
            return builder.build();
        } catch (InvalidProtocolBufferException e) {
            throw new IllegalArgumentException(explain(type, json, e));
        }
    }

    /** The field a JSON key names, by its proto name or its JSON name, as JsonFormat accepts both; null if none. */
    static FieldDescriptor field(Descriptor type, String key) {
        FieldDescriptor field = type.findFieldByName(key);
        if (field != null) {
            return field;
        }
        for (FieldDescriptor candidate : type.getFields()) {
            if (candidate.getJsonName().equals(key)) {
                return candidate;
            }
        }
        return null;
    }

    /** Whether {@code field} holds a message whose JSON is an object of its fields. */
    static boolean isPlainMessage(FieldDescriptor field) {
        return field.getJavaType() == FieldDescriptor.JavaType.MESSAGE
                && !SPECIAL_JSON.contains(field.getMessageType().getFullName());
    }

    /** JsonFormat's message on one line, without the class names of the exceptions it passes on. */
    static String clean(String message) {
        if (message == null || message.isBlank()) {
            return "(no detail)";
        }
        String line = message.replaceAll("\\s+", " ").trim();
        String before;
        do {
            before = line;
            line = line.replaceFirst("^(?:[a-z_$][\\w$]*\\.)+[A-Z][\\w$]*: ", "");
        } while (!line.equals(before));
        return line;
    }

    private static String explain(MessageType type, ObjectNode json, InvalidProtocolBufferException e) {
        String message = clean(e.getMessage());
        if (message.startsWith("Cannot find field")) {
            return message; // names the field and the message already
        }
        String path = locate(type, type.descriptor(), json, "");
        return path == null ? message : "field " + path + ": " + message;
    }

    /**
     * The path of the first field in {@code json} that does not parse on its own, as deep as messages go: JsonFormat
     * reads fields in order and stops at the first bad one, so its message is that field's. Run on errors only.
     */
    private static String locate(MessageType type, Descriptor descriptor, ObjectNode json, String prefix) {
        for (Map.Entry<String, JsonNode> property : json.properties()) {
            FieldDescriptor field = field(descriptor, property.getKey());
            JsonNode value = property.getValue();
            if (field == null) {
                return null;
            }
            if (parses(type, descriptor, property.getKey(), value)) {
                continue;
            }
            String here = prefix + field.getName();
            String inner = null;
            if (field.isMapField()) {
                FieldDescriptor valueField = field.getMessageType().findFieldByName("value");
                if (isPlainMessage(valueField) && value.isObject()) {
                    for (Map.Entry<String, JsonNode> entry : value.properties()) {
                        inner = inner != null || !entry.getValue().isObject() ? inner : locate(type,
                                valueField.getMessageType(), (ObjectNode) entry.getValue(),
                                here + "[" + JsonText.quote(entry.getKey()) + "].");
                    }
                }
            } else if (field.isRepeated()) {
                if (isPlainMessage(field) && value.isArray()) {
                    for (int i = 0; i < value.size() && inner == null; i++) {
                        inner = value.get(i).isObject()
                                ? locate(type, field.getMessageType(), (ObjectNode) value.get(i), here + "[" + i + "].")
                                : null;
                    }
                }
            } else if (isPlainMessage(field) && value.isObject()) {
                inner = locate(type, field.getMessageType(), (ObjectNode) value, here + ".");
            }
            return inner != null ? inner : here;
        }
        return null;
    }

    private static boolean parses(MessageType type, Descriptor descriptor, String key, JsonNode value) {
        ObjectNode alone = JsonNodeFactory.instance.objectNode();
        alone.set(key, value);
        try {
            type.parser().merge(alone.toString(), DynamicMessage.newBuilder(descriptor));
            return true;
        } catch (InvalidProtocolBufferException e) {
            return false;
        }
    }
}
