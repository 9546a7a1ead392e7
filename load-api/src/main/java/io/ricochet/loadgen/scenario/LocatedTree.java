package io.ricochet.loadgen.scenario;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * A scenario file read as a tree, with the line and column of every key, so that a problem found later names where
 * the key is: {@code scenario.yaml:7:3: connections: 0 (expected: > 0)}. JSON when the text starts with a brace, YAML
 * otherwise; a key given twice is refused, and the file's nesting and size are bounded before anything is built.
 */
final class LocatedTree {
    /** The longest number a scenario takes, in characters, and the largest exponent: far past any setting's range. */
    static final int MAX_NUMBER_CHARS = 64;
    static final int MAX_NUMBER_SCALE = 100;

    /** The deepest nesting a scenario file needs is three; this bounds what a hostile file can make the parser do. */
    private static final int MAX_DEPTH = 8;

    private final String file;
    private final JsonNode root;
    private final Map<String, JsonLocation> keys;
    /** Each number as the file wrote it: YAML reads 0x10 and 1_000 as numbers, but a parameter means the text. */
    private final Map<JsonNode, String> numberTexts;

    private LocatedTree(String file, JsonNode root, Map<String, JsonLocation> keys, Map<JsonNode, String> numberTexts) {
        this.file = file;
        this.root = root;
        this.keys = keys;
        this.numberTexts = numberTexts;
    }

    /** The text the file gave the number {@code n}, or its plain decimal form. */
    String numberText(JsonNode n) {
        String text = numberTexts.get(n);
        return text != null ? text : n.decimalValue().toPlainString();
    }

    /** The tree of {@code text}, which came from {@code file}; a text that is neither YAML nor JSON is refused. */
    static LocatedTree parse(String file, String text) {
        boolean json = text.stripLeading().startsWith("{");
        JsonFactory factory = (json ? JsonFactory.builder() : YAMLFactory.builder())
                .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH).build()).build();
        Map<String, JsonLocation> keys = new HashMap<>();
        Map<JsonNode, String> numberTexts = new java.util.IdentityHashMap<>();
        try (JsonParser parser = factory.createParser(text)) {
            JsonToken first = parser.nextToken();
            if (first == null) {
                throw new ScenarioFileException(file, null, "", "empty (expected: a mapping of keys, as YAML or JSON)");
            }
            JsonNode root = read(parser, "", keys, numberTexts, file);
            if (!root.isObject()) {
                throw new ScenarioFileException(file, parser.currentTokenLocation(), "",
                        "a " + kind(root) + " (expected: a mapping of keys, as YAML or JSON)");
            }
            if (parser.nextToken() != null) {
                throw new ScenarioFileException(file, parser.currentTokenLocation(), "",
                        "more than one document (expected: one scenario)");
            }
            return new LocatedTree(file, root, keys, numberTexts);
        } catch (JsonProcessingException e) {
            throw new ScenarioFileException(file, e.getLocation(), "", "not " + (json ? "JSON" : "YAML") + ": "
                    + e.getOriginalMessage().replaceAll("\\s+", " ").trim());
        } catch (IOException e) {
            throw new ScenarioFileException(file, null, "", "cannot be read: " + e.getMessage());
        }
    }

    /** The value at the parser's current token, its keys' locations recorded under {@code path}. */
    private static JsonNode read(JsonParser p, String path, Map<String, JsonLocation> keys,
            Map<JsonNode, String> numberTexts, String file) throws IOException {
        JsonToken t = p.currentToken();
        switch (t) {
            case START_OBJECT -> {
                ObjectNode object = JsonNodeFactory.instance.objectNode();
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String name = p.currentName();
                    String key = path.isEmpty() ? name : path + "." + name;
                    JsonLocation at = p.currentTokenLocation();
                    if (object.has(name)) {
                        throw new ScenarioFileException(file, at, key, "given twice (expected: once)");
                    }
                    keys.put(key, at);
                    p.nextToken();
                    object.set(name, read(p, key, keys, numberTexts, file));
                }
                return object;
            }
            case START_ARRAY -> {
                ArrayNode array = JsonNodeFactory.instance.arrayNode();
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    array.add(read(p, path, keys, numberTexts, file));
                }
                return array;
            }
            case VALUE_STRING -> {
                return JsonNodeFactory.instance.textNode(p.getText());
            }
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> {
                // Bounded before any digit is expanded: 1e999999999 is short text but a billion digits written out.
                String text = p.getText();
                java.math.BigDecimal value = text.length() <= MAX_NUMBER_CHARS ? p.getDecimalValue() : null;
                if (value == null || Math.abs((long) value.scale()) > MAX_NUMBER_SCALE) {
                    throw new ScenarioFileException(file, p.currentTokenLocation(), path, (text.length() <= 40 ? text
                            : text.substring(0, 40) + "...") + " (expected: a number of at most " + MAX_NUMBER_CHARS
                            + " characters, its exponent within " + MAX_NUMBER_SCALE + ")");
                }
                JsonNode number = JsonNodeFactory.instance.numberNode(value);
                numberTexts.put(number, text);
                return number;
            }
            case VALUE_TRUE, VALUE_FALSE -> {
                return JsonNodeFactory.instance.booleanNode(t == JsonToken.VALUE_TRUE);
            }
            case VALUE_NULL -> {
                return JsonNodeFactory.instance.nullNode();
            }
            default -> throw new ScenarioFileException(file, p.currentTokenLocation(), path, "an unexpected " + t);
        }
    }

    String file() {
        return file;
    }

    JsonNode root() {
        return root;
    }

    /** Where {@code key} is, or null if the file does not give it. */
    JsonLocation location(String key) {
        return keys.get(key);
    }

    /** Where {@code key} is, or the nearest section that holds it, or null. */
    JsonLocation nearest(String key) {
        for (String k = key; !k.isEmpty(); k = k.contains(".") ? k.substring(0, k.lastIndexOf('.')) : "") {
            if (keys.containsKey(k)) {
                return keys.get(k);
            }
        }
        return null;
    }

    static String kind(JsonNode node) {
        return node.isObject() ? "mapping" : node.isArray() ? "list" : node.isTextual() ? "string"
                : node.isNumber() ? "number" : node.isBoolean() ? "boolean" : "null";
    }
}
