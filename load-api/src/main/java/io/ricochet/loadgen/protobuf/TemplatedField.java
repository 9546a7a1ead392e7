package io.ricochet.loadgen.protobuf;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import io.ricochet.loadgen.payload.Template;
import io.ricochet.loadgen.workload.Context;

/**
 * One value of a message that has placeholders, made again for each request and put into the message. A string field
 * takes the filled-in text as it is, and an integer field its digits, with no JSON in between; any other value (a
 * bool, an enum, bytes as base64, a timestamp, a struct) goes through JsonFormat, as the value alone, so it means what
 * it would in the whole message.
 *
 * @param type     the message type whose JsonFormat parser reads the values that go through JSON
 * @param path     where in the message the value goes
 * @param kind     how the filled-in text becomes the value
 * @param template the value's text, placeholders and all
 */
record TemplatedField(MessageType type, FieldPath path, Kind kind, Template template) {
    /** How the filled-in text becomes the field's value. */
    enum Kind {
        /** A string field: the text. */
        STRING,
        /** An integer field: the text's digits; JsonFormat's wider syntax ("1e3") and errors through {@link #JSON}. */
        INTEGER,
        /** Any other field given a string: the text as a JSON string, through JsonFormat. */
        QUOTED,
        /** A value given as JSON other than a string (a struct, a list): the JSON text, through JsonFormat. */
        JSON
    }

    /** The value {@code json} gives at {@code path}, a value JsonFormat has parsed once already. */
    static TemplatedField of(MessageType type, FieldPath path, JsonNode json, long seed) {
        if (!json.isTextual()) {
            return new TemplatedField(type, path, Kind.JSON, Template.parse(json.toString(), seed));
        }
        // Each string its own template, so {{rand:N}} makes the same bytes wherever the same string stands: the expected
        // answer's copy of a request's string makes what the request sent.
        Template text = Template.parse(json.textValue(), seed);
        FieldDescriptor field = path.last();
        return switch (field.getType()) {
            case STRING -> new TemplatedField(type, path, Kind.STRING, text);
            case INT32, SINT32, SFIXED32, INT64, SINT64, SFIXED64, UINT32, FIXED32, UINT64, FIXED64 ->
                    new TemplatedField(type, path, Kind.INTEGER, text);
            default -> new TemplatedField(type, path, Kind.QUOTED, text);
        };
    }

    /** Puts the value for {@code request} into {@code message}. */
    void apply(Context request, Message.Builder message) {
        path.set(message, value(request));
    }

    /** The value for {@code request}, of the type {@link Message#getField} gives for the field. */
    Object value(Context request) {
        String text = template.expandToString(request);
        return switch (kind) {
            case STRING -> text;
            case INTEGER -> integer(text);
            case QUOTED -> fromJson(JsonText.quote(text));
            case JSON -> fromJson(text);
        };
    }

    private Object integer(String text) {
        try {
            switch (path.last().getType()) {
                case INT32, SINT32, SFIXED32:
                    return Integer.parseInt(text);
                case INT64, SINT64, SFIXED64:
                    return Long.parseLong(text);
                case UINT32, FIXED32:
                    long value = Long.parseLong(text);
                    if (value >= 0 && value <= 0xFFFF_FFFFL) {
                        return (int) value;
                    }
                    break;
                default: // UINT64, FIXED64
                    if (!text.startsWith("-")) {
                        return Long.parseUnsignedLong(text);
                    }
            }
        } catch (NumberFormatException e) {
            // Not plain digits in range: JsonFormat says what it makes of them.
        }
        return fromJson(JsonText.quote(text));
    }

    /** The value of {@code json} at this path, parsed by JsonFormat in the message that holds the field. */
    private Object fromJson(String json) {
        FieldDescriptor field = path.last();
        String alone = "{\"" + field.getName() + "\":" + (path.isElement() ? "[" + json + "]" : json) + "}";
        DynamicMessage.Builder holder = DynamicMessage.newBuilder(field.getContainingType());
        try {
            type.parser().merge(alone, holder);
        } catch (InvalidProtocolBufferException e) {
            throw new IllegalArgumentException("field " + path + ": " + ProtoJson.clean(e.getMessage()));
        }
        return path.isElement() ? holder.getRepeatedField(field, 0) : holder.getField(field);
    }
}
