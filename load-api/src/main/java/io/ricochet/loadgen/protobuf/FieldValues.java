package io.ricochet.loadgen.protobuf;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.TextFormat;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Field values of dynamic messages compared as an expectation means them, and shown in a bad answer's reason. */
final class FieldValues {
    /** The most characters one value takes in a reason, so both values fit in it. */
    static final int SHOWN = 80;

    private FieldValues() {
    }

    /**
     * Whether {@code field} has the same value in both: a map's entries in any order, a list's elements in order, an
     * enum by number (an answer may carry a number this descriptor does not name).
     */
    static boolean equal(FieldDescriptor field, Object actual, Object expected) {
        if (field.isMapField()) {
            return asMap(field, (List<?>) actual).equals(asMap(field, (List<?>) expected));
        }
        if (field.isRepeated()) {
            List<?> a = (List<?>) actual;
            List<?> e = (List<?>) expected;
            if (a.size() != e.size()) {
                return false;
            }
            for (int i = 0; i < a.size(); i++) {
                if (!Objects.equals(comparable(a.get(i)), comparable(e.get(i)))) {
                    return false;
                }
            }
            return true;
        }
        return Objects.equals(comparable(actual), comparable(expected));
    }

    private static Map<Object, Object> asMap(FieldDescriptor field, List<?> entries) {
        FieldDescriptor key = field.getMessageType().findFieldByName("key");
        FieldDescriptor value = field.getMessageType().findFieldByName("value");
        Map<Object, Object> map = new HashMap<>();
        for (Object entry : entries) {
            Message m = (Message) entry;
            map.put(m.getField(key), comparable(m.getField(value)));
        }
        return map;
    }

    private static Object comparable(Object value) {
        return value instanceof EnumValueDescriptor e ? e.getNumber() : value;
    }

    /** {@code value} as JSON would write it, cut to {@value #SHOWN} characters: {@code "b"}, {@code 2}, {@code [1, 2]}. */
    static String show(FieldDescriptor field, Object value, MessageType type) {
        StringBuilder out = new StringBuilder();
        if (field.isMapField()) {
            FieldDescriptor key = field.getMessageType().findFieldByName("key");
            FieldDescriptor val = field.getMessageType().findFieldByName("value");
            out.append('{');
            for (Object entry : (List<?>) value) {
                if (out.length() > SHOWN) {
                    break;
                }
                Message m = (Message) entry;
                out.append(out.length() > 1 ? ", " : "").append(scalar(key, m.getField(key), type)).append(": ")
                        .append(scalar(val, m.getField(val), type));
            }
            out.append('}');
        } else if (field.isRepeated()) {
            out.append('[');
            for (Object element : (List<?>) value) {
                if (out.length() > SHOWN) {
                    break;
                }
                out.append(out.length() > 1 ? ", " : "").append(scalar(field, element, type));
            }
            out.append(']');
        } else {
            out.append(scalar(field, value, type));
        }
        return JsonText.abbreviate(out.toString(), SHOWN);
    }

    private static String scalar(FieldDescriptor field, Object value, MessageType type) {
        return switch (field.getType()) {
            case STRING -> JsonText.quote((String) value);
            case BYTES -> "\"" + Base64.getEncoder().encodeToString(((ByteString) value).toByteArray()) + "\"";
            case ENUM -> ((EnumValueDescriptor) value).getName();
            case UINT32, FIXED32 -> Integer.toUnsignedString((Integer) value);
            case UINT64, FIXED64 -> Long.toUnsignedString((Long) value);
            case MESSAGE, GROUP -> json((Message) value, type);
            default -> String.valueOf(value);
        };
    }

    private static String json(Message message, MessageType type) {
        try {
            return type.printer().print(message);
        } catch (InvalidProtocolBufferException e) {
            return TextFormat.shortDebugString(message); // an Any of a type the set does not have
        }
    }
}
