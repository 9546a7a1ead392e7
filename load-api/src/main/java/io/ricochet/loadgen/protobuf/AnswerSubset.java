package io.ricochet.loadgen.protobuf;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The fields an expected answer's JSON names, and how each is compared: a message given as an object is compared as a
 * subset again, field by field; any other value whole (a list, a map, a timestamp, a number, even the default one the
 * JSON names); {@code null}, for a field that tracks presence, means the field must not be set.
 */
final class AnswerSubset {
    private enum Kind { WHOLE, SUBSET, UNSET }

    private record Match(FieldDescriptor field, Kind kind, AnswerSubset nested) {
    }

    private final Match[] matches;

    private AnswerSubset(List<Match> matches) {
        this.matches = matches.toArray(new Match[0]);
    }

    /** The fields {@code json} names in {@code type}; {@code json} has parsed as one already. */
    static AnswerSubset of(Descriptor type, ObjectNode json) {
        List<Match> matches = new ArrayList<>();
        for (Map.Entry<String, JsonNode> property : json.properties()) {
            FieldDescriptor field = ProtoJson.field(type, property.getKey());
            JsonNode value = property.getValue();
            if (value.isNull() && field.hasPresence()
                    && !(field.getJavaType() == FieldDescriptor.JavaType.MESSAGE
                    && field.getMessageType().getFullName().equals("google.protobuf.Value"))) {
                matches.add(new Match(field, Kind.UNSET, null)); // a Value's null is a value, NULL_VALUE
            } else if (!field.isRepeated() && ProtoJson.isPlainMessage(field) && value.isObject()) {
                matches.add(new Match(field, Kind.SUBSET, of(field.getMessageType(), (ObjectNode) value)));
            } else {
                matches.add(new Match(field, Kind.WHOLE, null));
            }
        }
        return new AnswerSubset(matches);
    }

    /**
     * Why {@code answer} does not have what {@code expected} has in the named fields, for the first field that differs:
     * {@code field inner.name: "b" (expected: "a")}; null if it has.
     */
    String mismatch(Message answer, Message expected, MessageType type) {
        return mismatch(answer, expected, "", type);
    }

    private String mismatch(Message answer, Message expected, String prefix, MessageType type) {
        for (Match match : matches) {
            FieldDescriptor field = match.field();
            Object actual = answer.getField(field);
            switch (match.kind()) {
                case SUBSET -> {
                    String why = match.nested().mismatch((Message) actual, (Message) expected.getField(field),
                            prefix + field.getName() + ".", type);
                    if (why != null) {
                        return why;
                    }
                }
                case UNSET -> {
                    if (answer.hasField(field)) {
                        return "field " + prefix + field.getName() + ": " + FieldValues.show(field, actual, type)
                                + " (expected: not set)";
                    }
                }
                case WHOLE -> {
                    Object wanted = expected.getField(field);
                    if (!FieldValues.equal(field, actual, wanted)) {
                        return "field " + prefix + field.getName() + ": " + FieldValues.show(field, actual, type)
                                + " (expected: " + FieldValues.show(field, wanted, type) + ")";
                    }
                }
            }
        }
        return null;
    }
}
