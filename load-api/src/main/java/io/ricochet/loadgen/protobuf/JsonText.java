package io.ricochet.loadgen.protobuf;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.ricochet.loadgen.payload.Template;
import io.ricochet.loadgen.workload.Context;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * JSON objects as the user writes them, read strictly before JsonFormat sees them: a duplicate key, a second value or
 * a syntax error is an {@link IllegalArgumentException} of one line, and placeholders are allowed in string values only.
 */
final class JsonText {
    static final String PLACEHOLDER = "{{";
    private static final String EXAMPLE = "(expected: an object such as {\"id\": 1})";
    private static final int SHOWN = 60;

    // Numbers are kept exactly as written: JsonFormat reads the tree's text again, and an int64 must not pass through a
    // double on the way.
    private static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
            .build();

    private JsonText() {
    }

    /** The one JSON object in {@code text}. */
    static ObjectNode parseObject(String text) {
        JsonNode node;
        try (JsonParser parser = MAPPER.createParser(text)) {
            node = MAPPER.readTree(parser);
            if (node != null && parser.nextToken() != null) {
                throw new IllegalArgumentException("more than one JSON value" + at(parser.currentTokenLocation()) + " "
                        + EXAMPLE);
            }
        } catch (JsonProcessingException e) {
            // Jackson's message may point at where an object started, with a note on the source it does not show.
            String message = e.getOriginalMessage().replaceAll("\\s+", " ")
                    .replaceAll("\\[Source: [^]]*?; line: (\\d+), column: (\\d+)]", "line $1, column $2");
            throw new IllegalArgumentException("not JSON: " + message + at(e.getLocation()));
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a string is read, so no I/O fails
        }
        if (node == null || node.isMissingNode()) {
            throw new IllegalArgumentException("no JSON " + EXAMPLE);
        }
        if (!node.isObject()) {
            throw new IllegalArgumentException("not a JSON object: " + abbreviate(node.toString(), SHOWN) + " " + EXAMPLE);
        }
        return (ObjectNode) node;
    }

    private static String at(JsonLocation location) {
        if (location == null || location.getColumnNr() < 1) {
            return "";
        }
        return location.getLineNr() > 1
                ? " at line " + location.getLineNr() + ", column " + location.getColumnNr()
                : " at column " + location.getColumnNr();
    }

    /** Whether a string value in {@code node} has a placeholder. */
    static boolean hasPlaceholder(JsonNode node) {
        if (node.isTextual()) {
            return node.textValue().contains(PLACEHOLDER);
        }
        for (JsonNode child : node) {
            if (hasPlaceholder(child)) {
                return true;
            }
        }
        return false;
    }

    /**
     * A copy of {@code node} with the placeholders of its string values filled in for {@code context}; an
     * {@link IllegalArgumentException} for a placeholder that is not one, or one in a key.
     */
    static JsonNode expand(JsonNode node, long seed, Context context) {
        if (node.isTextual()) {
            String text = node.textValue();
            return text.contains(PLACEHOLDER) ? TextNode.valueOf(Template.parse(text, seed).expandToString(context)) : node;
        }
        if (node.isObject()) {
            ObjectNode copy = MAPPER.createObjectNode();
            for (Map.Entry<String, JsonNode> property : node.properties()) {
                if (property.getKey().contains(PLACEHOLDER)) {
                    throw new IllegalArgumentException("a placeholder in the key " + quote(property.getKey())
                            + " (expected: placeholders in string values only)");
                }
                copy.set(property.getKey(), expand(property.getValue(), seed, context));
            }
            return copy;
        }
        if (node.isArray()) {
            ArrayNode copy = MAPPER.createArrayNode();
            node.forEach(element -> copy.add(expand(element, seed, context)));
            return copy;
        }
        return node;
    }

    /** {@code text} as a JSON string, in quotes. */
    static String quote(String text) {
        return "\"" + new String(JsonStringEncoder.getInstance().quoteAsString(text)) + "\"";
    }

    /** {@code text} cut to {@code max} characters, an ellipsis at the end if it was longer. */
    static String abbreviate(String text, int max) {
        return text.length() <= max ? text : text.substring(0, max - 1) + "…";
    }
}
