package io.ricochet.loadgen.protobuf;

import com.google.protobuf.ByteString;
import io.ricochet.loadgen.files.InputFiles;
import io.ricochet.loadgen.workload.Context;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The requests of a method, as JSON of its request type (protobuf's JSON mapping, as ghz's {@code -d}): one object, or
 * a file of one object per line ({@code @FILE}; blank lines skipped) used in turn by the request's number. Placeholders
 * ({@code {{seq}}}, {@code {{conn}}}, {@code {{worker}}}, {@code {{rand:N}}}, {@code {{time_us}}}) may stand in string
 * values, including the strings JSON allows for numbers: {@code {"sequence": "{{seq}}"}} sets a uint64 field.
 *
 * <pre>{@code
 * RequestData data = RequestData.parse("{\"client_id\": \"{{conn}}\", \"body\": \"aGk=\"}", bench, seed);
 * ByteString payload = data.payload(request);
 * }</pre>
 *
 * Every object is checked when it is read: JSON that does not fit the type is an {@link IllegalArgumentException} that
 * names the field and, for a file, the line: {@code line 3: Cannot find field: foo in message
 * ricochet.bench.BenchMessage}. A line without placeholders is encoded once; one with placeholders is the message made
 * from its JSON once, with only the templated fields set again per request.
 */
public final class RequestData {
    /** The largest file of requests {@link #parse} reads. */
    public static final int MAX_FILE_BYTES = 64 << 20;

    private final TemplatedMessage[] lines;

    private RequestData(List<TemplatedMessage> lines) {
        this.lines = lines.toArray(new TemplatedMessage[0]);
    }

    /**
     * The requests {@code data} gives: a JSON object, or {@code @FILE}, a file of at most {@value #MAX_FILE_BYTES}
     * bytes with one JSON object per line.
     *
     * @param seed the run's seed, from which {@code {{rand:N}}} makes its bytes
     */
    public static RequestData parse(String data, MessageType requestType, long seed) {
        if (data.startsWith("@")) {
            return load(InputFiles.path(data.substring(1)), requestType, seed);
        }
        return new RequestData(List.of(TemplatedMessage.parse(requestType, JsonText.parseObject(data), seed)));
    }

    /** The requests of {@code file}, one JSON object per line, blank lines skipped. */
    public static RequestData load(Path file, MessageType requestType, long seed) {
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(
                    InputFiles.read(file, MAX_FILE_BYTES))).toString();
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException(file + ": not UTF-8 text");
        }
        List<TemplatedMessage> lines = new ArrayList<>();
        String[] split = text.split("\r?\n", -1);
        for (int i = 0; i < split.length; i++) {
            if (split[i].isBlank()) {
                continue;
            }
            try {
                lines.add(TemplatedMessage.parse(requestType, JsonText.parseObject(split[i]), seed));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("line " + (i + 1) + ": " + e.getMessage(), e);
            }
        }
        if (lines.isEmpty()) {
            throw new IllegalArgumentException(file + ": no JSON object (expected: one per line)");
        }
        return new RequestData(lines);
    }

    /**
     * The request message's bytes for {@code request}: line {@code (connection + sequence) % lines} of a file, so
     * connections start on different lines and each goes round them all.
     */
    public ByteString payload(Context request) {
        int line = lines.length == 1 ? 0 : (int) Math.floorMod(request.connection() + request.sequence(), (long) lines.length);
        return lines[line].bytes(request);
    }

    /** How many objects it has. */
    public int size() {
        return lines.length;
    }

    /** Whether any object has placeholders, so some requests are made per call. */
    public boolean hasPlaceholders() {
        for (TemplatedMessage line : lines) {
            if (line.hasPlaceholders()) {
                return true;
            }
        }
        return false;
    }
}
