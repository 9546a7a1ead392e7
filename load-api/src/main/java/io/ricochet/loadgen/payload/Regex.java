package io.ricochet.loadgen.payload;

import io.netty.buffer.ByteBuf;
import io.ricochet.loadgen.workload.Context;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The regular expression of {@code --expect regex:RE}, compiled and checked once and shared by every connection. Its
 * placeholders stand for their values, quoted ({@link Pattern#quote}); how they are matched depends on when the values
 * change, since compiling a pattern per reply would cost more than the rest of a request together:
 *
 * <ul>
 *   <li>no placeholders: one pattern for the run;</li>
 *   <li>only {@code {{conn}}} and {@code {{worker}}}: one pattern per connection, compiled when it opens;</li>
 *   <li>{@code {{seq}}}, {@code {{time_us}}} or {@code {{rand:N}}}: one pattern for the run that captures the values
 *       from a prefix of the matched text and matches each placeholder as a back reference to its value (see
 *       {@link #captured}). Where that could differ from matching the quoted values (a lookbehind or a numbered back
 *       reference in RE, comments mode, a quantifier right after a placeholder, a placeholder inside a character class
 *       or a quote), the pattern is compiled per reply instead: right, but slow.</li>
 * </ul>
 *
 * @param source   the expression as given, placeholders and all
 * @param template the template over the expression's text; its placeholders are the expression's
 * @param fixed    without placeholders: the pattern for every reply; otherwise null
 * @param captured with values that change per request: the pattern reading them from a prefix ({@link #captured}),
 *                 or null to compile per reply
 */
record Regex(String source, Template template, Pattern fixed, Pattern captured) {
    private static final String GROUP = "ricochetValue";
    /** Between values in the text {@link #captured} reads them from; no value holds one. */
    static final char SEPARATOR = '\n';
    private static final Pattern LOOKBEHIND = Pattern.compile("\\(\\?<[=!]");
    private static final Pattern NUMBERED_BACK_REFERENCE = Pattern.compile("\\\\[1-9]");
    private static final Pattern COMMENTS_FLAG = Pattern.compile("\\(\\?[a-zA-Z-]*x");
    private static final String QUANTIFIERS = "*+?{";

    /**
     * Parses {@code source}; an IllegalArgumentException if its placeholders or the pattern around them are wrong:
     * {@code regex:[a: Unclosed character class near index 1}. The pattern is checked with each placeholder replaced by
     * a quoted dummy of the same length, so the index is where the user's text has the error.
     */
    static Regex parse(String source, long seed) {
        Template template;
        try {
            template = Template.parse(source, seed);
        } catch (IllegalArgumentException e) {
            throw invalid(source, e.getMessage());
        }
        Pattern checked;
        try {
            checked = Pattern.compile(template.replacePlaceholders(i -> dummy(template.placeholderSource(i).length())));
        } catch (PatternSyntaxException e) {
            throw invalid(source, e.getDescription() + (e.getIndex() >= 0 ? " near index " + e.getIndex() : ""));
        }
        if (template.placeholderCount() == 0) {
            return new Regex(source, template, checked, null);
        }
        Pattern captured = template.variesPerRequest() ? captured(source, template, checked) : null;
        return new Regex(source, template, null, captured);
    }

    private static IllegalArgumentException invalid(String source, String why) {
        return new IllegalArgumentException("regex:" + source + ": " + why);
    }

    /**
     * A quoted literal in a placeholder's place that keeps an error's index where it is in the user's text: as long as
     * the placeholder (7 characters or more), and as long once Java has rewritten it. Java reports indices in the
     * pattern it has rewritten without {@code \Q…\E}: a digit after {@code \Q} becomes four characters and a
     * quoted {@code -} two, which make up for the four of {@code \Q} and {@code \E}.
     */
    private static String dummy(int length) {
        return "\\Q0-" + "0".repeat(length - 6) + "\\E";
    }

    /**
     * The pattern that matches as the quoted values would, reading the values from the text: the text is the values,
     * each followed by {@link #SEPARATOR}, then the reply, and the region is the reply. A lookbehind at the region's
     * start captures the values (it can reach them with transparent bounds, and is bounded as Java requires), each
     * placeholder is a back reference to its value, and a lazy scan before the expression gives find()'s leftmost
     * match. Anchoring bounds keep {@code ^} and {@code \A} at the reply's start. Null where that could match
     * differently: a lookbehind in the expression would also see the values; a numbered back reference would count
     * the capturing groups added here; a quantifier after a placeholder would repeat a whole value instead of its
     * last character; comments mode could hide either; and a placeholder in a character class, a quote or a comment
     * is no back reference (it then adds no group, which the group count shows).
     */
    private static Pattern captured(String source, Template template, Pattern checked) {
        if (LOOKBEHIND.matcher(source).find() || NUMBERED_BACK_REFERENCE.matcher(source).find()
                || COMMENTS_FLAG.matcher(source).find() || quantifiedPlaceholder(template)) {
            return null;
        }
        int count = template.placeholderCount();
        try {
            Pattern groups = Pattern.compile(template.replacePlaceholders(i -> "(?<" + GROUP + i + ">)"));
            if (groups.matcher("").groupCount() != checked.matcher("").groupCount() + count) {
                return null;
            }
            // \A inside the lookbehind is the text's start (a lookbehind over transparent bounds starts from 0), so
            // the values are read from there only; a nested (?<![\s\S]) would say the same at twice the cost.
            StringBuilder pattern = new StringBuilder("\\A(?<=\\A");
            for (int i = 0; i < count; i++) {
                pattern.append("(?<").append(GROUP).append(i).append(">[^\\n]{0,").append(template.maxLength())
                        .append("})\\n");
            }
            pattern.append(")[\\s\\S]*?(?:")
                    .append(template.replacePlaceholders(i -> "\\k<" + GROUP + i + ">"))
                    .append(')');
            return Pattern.compile(pattern.toString());
        } catch (PatternSyntaxException e) {
            return null;
        }
    }

    private static boolean quantifiedPlaceholder(Template template) {
        String marked = template.replacePlaceholders(i -> "\uE000");
        for (int at = marked.indexOf('\uE000'); at >= 0; at = marked.indexOf('\uE000', at + 1)) {
            if (at + 1 < marked.length() && QUANTIFIERS.indexOf(marked.charAt(at + 1)) >= 0) {
                return true;
            }
        }
        return false;
    }

    /** The pattern with {@code request}'s values quoted in: per connection, or per reply as the last resort. */
    Pattern compile(Context request) {
        return Pattern.compile(template.replacePlaceholders(i -> Pattern.quote(value(i, request))));
    }

    private String value(int placeholder, Context request) {
        byte[] bytes = new byte[template.maxLength()];
        int n = template.putValue(placeholder, request, bytes, 0);
        return new String(bytes, 0, n, StandardCharsets.US_ASCII);
    }

    /** Why {@code reply} is bad: {@code "missing" does not match regex value \d+}, values shown as they are. */
    String reason(Context request, ByteBuf reply) {
        StringBuilder out = new StringBuilder();
        Excerpt.quote(out, reply, 0);
        return out.append(" does not match regex ")
                .append(Excerpt.plain(template.replacePlaceholders(i -> value(i, request))))
                .toString();
    }

    @Override
    public String toString() {
        return source;
    }
}
