package io.ricochet.loadgen.scenario;

import java.util.List;
import java.util.function.UnaryOperator;

/**
 * A scenario that cannot run, for a reason that involves more than one value's range. Its message is made of text and
 * the keys it is about ({@link Key}), so that a scenario file's reader says {@code tls.ca} where the command line says
 * {@code --tls-ca}: {@link #getMessage} names keys, {@link #render} names them as its caller does.
 *
 * <pre>{@code
 * throw new ScenarioException("tls.ca", Key.of("tls.ca"), " " + ca + " with ", Key.of("tls.insecure"),
 *         " (expected: one or the other)");
 * // getMessage():                tls.ca server.crt with tls.insecure (expected: one or the other)
 * // render(key -> flagOf(key)):  --tls-ca server.crt with --insecure (expected: one or the other)
 * }</pre>
 */
public final class ScenarioException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /**
     * A key named in a message, rendered by whoever shows it; a {@code bare} one without a flag's leading dashes, as
     * the head of a message ({@code connections: 3 over 4 workers ...}).
     */
    public record Key(String path, boolean bare) {
        public static Key of(String path) {
            return new Key(path, false);
        }

        public static Key bare(String path) {
            return new Key(path, true);
        }
    }

    private final String key;
    private final transient List<Object> parts;
    private final boolean invalidValue;

    /** A value that does not go with the others: {@code key} is where a file shows it; {@code parts} the message. */
    public ScenarioException(String key, Object... parts) {
        this(key, true, parts);
    }

    private ScenarioException(String key, boolean invalidValue, Object... parts) {
        super(render(List.of(parts), UnaryOperator.identity()));
        this.key = key;
        this.parts = List.of(parts);
        this.invalidValue = invalidValue;
    }

    /** A scenario that asks for nothing a run could do (nothing to sweep): not any one value's fault. */
    public static ScenarioException nothingToRun(String key, Object... parts) {
        return new ScenarioException(key, false, parts);
    }

    /** The key this is about first, as a scenario file names it: {@code tls.ca}. */
    public String key() {
        return key;
    }

    /** Whether one value is at fault (the command line says "invalid option value"), or the scenario as a whole. */
    public boolean invalidValue() {
        return invalidValue;
    }

    /** The message with every key named by {@code name}. */
    public String render(UnaryOperator<String> name) {
        return render(parts, name);
    }

    private static String render(List<Object> parts, UnaryOperator<String> name) {
        StringBuilder out = new StringBuilder();
        for (Object part : parts) {
            if (part instanceof Key k) {
                String named = name.apply(k.path());
                out.append(k.bare() && named.startsWith("--") ? named.substring(2) : named);
            } else {
                out.append(part);
            }
        }
        return out.toString();
    }
}
