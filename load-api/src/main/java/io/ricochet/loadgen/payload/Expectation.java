package io.ricochet.loadgen.payload;

import io.ricochet.loadgen.workload.Check;
import io.ricochet.loadgen.workload.Context;
import java.util.function.Function;

/**
 * What each reply must be, as {@code --expect} says: one expectation serves every connection of a run.
 *
 * <ul>
 *   <li>{@code reversed} (the default): the request's body reversed, as the reference echo server answers;</li>
 *   <li>{@code echo}: the request's body as it was sent;</li>
 *   <li>{@code any}: any frame at all;</li>
 *   <li>{@code equals:TEXT}, {@code equals:@FILE} (or {@code equals:hex:HEX}): exactly those bytes, read as
 *       {@link Payloads#parse} reads a payload, placeholders filled in for the request the reply answers:
 *       {@code --payload 'get {{seq}}' --expect 'equals:value {{seq}}'};</li>
 *   <li>{@code regex:RE}: the reply decoded as UTF-8 (malformed bytes as U+FFFD) contains a match of the Java regular
 *       expression RE, as {@link java.util.regex.Matcher#find} finds one; {@code ^…$} makes it match the whole reply
 *       ({@code $} also before a final line break; {@code \z} not). A placeholder in RE stands for its value, quoted:
 *       {@code regex:^value {{seq}}$} matches {@code value 17} for request 17 only. Two opening braces
 *       start a placeholder: to match them literally, escape them (<code>\&#123;\&#123;</code>). A good reply
 *       allocates nothing, with one exception: where a placeholder whose value changes per request
 *       ({@code {{seq}}}, {@code {{time_us}}}, {@code {{rand:N}}}) is followed by a quantifier or stands in a
 *       character class or quote, or RE has a lookbehind, a numbered back reference or comments mode, the pattern is
 *       compiled per reply, which costs about as much as the rest of a request;</li>
 *   <li>{@code length:N}: any N bytes, N from 1.</li>
 * </ul>
 *
 * The i-th {@code {{rand:N}}} of an expected reply repeats the i-th of its request ({@link Template}). A wrong
 * {@code --expect} is an IllegalArgumentException whose message does not name the flag:
 *
 * <pre>{@code
 * Expectation value = Expectation.parse("equals:value {{seq}}", seed);
 * Expectation.parse("regex:[a", seed); // IllegalArgumentException: regex:[a: Unclosed character class near index 1
 * Expectation.parse("foo", seed);      // IllegalArgumentException: mode: foo (expected: reversed, echo, any, ...)
 * }</pre>
 */
public final class Expectation {
    /** The modes, as an error lists them. */
    static final String MODES = "reversed, echo, any, equals:TEXT, equals:@FILE, regex:RE or length:N";

    private enum Mode { REVERSED, ECHO, ANY, EQUALS, REGEX, LENGTH }

    private static final Expectation REVERSED = new Expectation(Mode.REVERSED, "reversed", null, null, 0);
    private static final Expectation ECHO = new Expectation(Mode.ECHO, "echo", null, null, 0);
    private static final Expectation ANY = new Expectation(Mode.ANY, "any", null, null, 0);
    private static final ReplyCheck ANY_REPLY = (request, reply) -> Check.ok();

    private final Mode mode;
    private final String text;
    private final Template expectedReply;
    private final Regex regex;
    private final int length;

    private Expectation(Mode mode, String text, Template reply, Regex regex, int length) {
        this.mode = mode;
        this.text = text;
        this.expectedReply = reply;
        this.regex = regex;
        this.length = length;
    }

    /**
     * The expectation {@code arg} describes.
     *
     * @param seed the run's seed, from which a {@code {{rand:N}}} derives its bytes (the payload's seed, so that they
     *             are the request's)
     */
    public static Expectation parse(String arg, long seed) {
        switch (arg) {
            case "reversed":
                return REVERSED;
            case "echo":
                return ECHO;
            case "any":
                return ANY;
            default:
                break;
        }
        if (arg.startsWith("equals:")) {
            Template reply;
            try {
                reply = Payloads.parse(arg.substring("equals:".length()), seed);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("equals: " + e.getMessage(), e);
            }
            return new Expectation(Mode.EQUALS, arg, reply, null, 0);
        }
        if (arg.startsWith("regex:")) {
            String re = arg.substring("regex:".length());
            if (re.isEmpty()) {
                throw new IllegalArgumentException("regex: empty (expected: a pattern; any matches every reply)");
            }
            return new Expectation(Mode.REGEX, arg, null, Regex.parse(re, seed), 0);
        }
        if (arg.startsWith("length:")) {
            String n = arg.substring("length:".length());
            try {
                return length(Integer.parseInt(n.trim()));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("length: " + n + " (expected: a whole number of bytes, >= 1)", e);
            }
        }
        int colon = arg.indexOf(':');
        String mode = arg.isEmpty() ? "empty" : colon < 0 ? arg : arg.substring(0, colon);
        throw new IllegalArgumentException("mode: " + Excerpt.plain(mode) + " (expected: " + MODES + ")");
    }

    /** Each reply is its request's body reversed: what the reference echo server answers. The default. */
    public static Expectation reversed() {
        return REVERSED;
    }

    /** Each reply is its request's body, as it was sent. */
    public static Expectation echo() {
        return ECHO;
    }

    /** Any reply is good: the load alone is measured. */
    public static Expectation any() {
        return ANY;
    }

    /**
     * Each reply is exactly {@code reply}'s bytes for the request it answers.
     *
     * <pre>{@code
     * Expectation.equalTo(Template.parse("value {{seq}}", seed))
     * }</pre>
     */
    public static Expectation equalTo(Template reply) {
        if (reply.isConstant() && reply.constantBytes().length == 0) {
            throw new IllegalArgumentException("reply: empty (expected: at least one byte; frames are never empty)");
        }
        return new Expectation(Mode.EQUALS, "equals:" + reply.replacePlaceholders(reply::placeholderSource), reply,
                null, 0);
    }

    /**
     * Each reply, decoded as UTF-8, contains a match of {@code re}, its placeholders filled in (see the class).
     *
     * <pre>{@code
     * Expectation.regex("^value \\d+$", seed)
     * }</pre>
     */
    public static Expectation regex(String re, long seed) {
        return parse("regex:" + re, seed);
    }

    /** Each reply is {@code bytes} long, whatever it holds. */
    public static Expectation length(int bytes) {
        if (bytes < 1) {
            throw new IllegalArgumentException("length: " + bytes + " (expected: >= 1)");
        }
        return new Expectation(Mode.LENGTH, "length:" + bytes, null, null, bytes);
    }

    /** Whether a reply must be its request's body reversed. */
    boolean isReversed() {
        return mode == Mode.REVERSED;
    }

    /** Whether a reply must be its request's body. */
    boolean isEcho() {
        return mode == Mode.ECHO;
    }

    /**
     * How each connection checks replies to requests written from {@code payload}: one check shared by all where it
     * holds no state, else one per connection. {@code payload} is null for generated bodies, whose reversal or echo
     * the conversation checks itself ({@link #isReversed}, {@link #isEcho}).
     */
    Function<Context, ReplyCheck> checks(Template payload) {
        return switch (mode) {
            case REVERSED -> sameBytes(payload, true, "not the request reversed: ");
            case ECHO -> sameBytes(payload, false, "not the request echoed: ");
            case EQUALS -> sameBytes(expectedReply, false, "");
            case ANY -> connection -> ANY_REPLY;
            case LENGTH -> {
                ReplyCheck check = (request, reply) -> reply.readableBytes() == length
                        ? Check.ok()
                        : Check.bad(reply.readableBytes() + " bytes (expected: " + length + ")");
                yield connection -> check;
            }
            case REGEX -> connection -> new RegexCheck(regex, connection);
        };
    }

    /**
     * Checks of {@code expected}'s bytes ({@code reversed} or not) for each request: computed once if they never change,
     * once per connection if only {@code {{conn}}} and {@code {{worker}}} change them, else per reply.
     */
    private static Function<Context, ReplyCheck> sameBytes(Template expected, boolean reversed, String prefix) {
        if (expected == null) {
            throw new IllegalStateException("generated bodies are compared by their conversation");
        }
        if (expected.isConstant()) {
            ReplyCheck check = new ConstantReply(reversedIf(reversed, expected.constantBytes()), prefix);
            return connection -> check;
        }
        if (!expected.variesPerRequest()) {
            return connection -> new ConstantReply(reversedIf(reversed, expected.bytesFor(connection)), prefix);
        }
        return connection -> new ExpandedReply(expected, reversed, prefix);
    }

    /**
     * What each connection's check keeps, in bytes, for requests from {@code payload} (null: generated) of at most
     * {@code maxBody} bytes. A regex check keeps the last reply as bytes and chars, counted as three times the longest
     * request, since replies are not known ahead.
     */
    long bytesPerConnection(Template payload, int maxBody) {
        return switch (mode) {
            // A reply that must be its request: the last requests kept to compare with, and a scratch to expand one.
            case REVERSED, ECHO -> payload == null || !payload.variesPerRequest() ? 0
                    : (RememberingConversation.REMEMBERED + 1L) * payload.maxLength();
            case EQUALS -> expectedReply.isConstant() ? 0 : expectedReply.maxLength();
            case REGEX -> 3L * maxBody + 3L * regex.template().maxLength();
            case ANY, LENGTH -> 0;
        };
    }

    /** {@code bytes}, reversed in place if {@code reversed}. */
    private static byte[] reversedIf(boolean reversed, byte[] bytes) {
        if (reversed) {
            for (int i = 0, j = bytes.length - 1; i < j; i++, j--) {
                byte b = bytes[i];
                bytes[i] = bytes[j];
                bytes[j] = b;
            }
        }
        return bytes;
    }

    /** As {@code --expect} would give it: {@code equals:value {{seq}}}. */
    @Override
    public String toString() {
        return text;
    }
}
