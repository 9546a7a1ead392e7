package io.ricochet.loadgen.payload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class RegexTest {
    private static final long SEED = 5;
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{\\s*([^}]*?)\\s*}}");

    /** The definition: each placeholder replaced by its value, quoted, and the result compiled and found. */
    private static boolean reference(String re, byte[] reply, FakeContext request) {
        String expanded = PLACEHOLDER.matcher(re).replaceAll(m -> Matcher.quoteReplacement(Pattern.quote(
                value(m.group(1), request))));
        return Pattern.compile(expanded).matcher(new String(reply, StandardCharsets.UTF_8)).find();
    }

    private static String value(String name, FakeContext request) {
        return switch (name) {
            case "seq" -> Long.toString(request.sequence);
            case "conn" -> Long.toString(request.connection);
            case "worker" -> Integer.toString(request.worker);
            case "time_us" -> Long.toString(request.sendTimeMicros);
            default -> Template.parse("{{" + name + "}}", SEED).expandToString(request);
        };
    }

    private static boolean check(String re, byte[] reply, FakeContext request) {
        ReplyCheck check = Expectation.parse("regex:" + re, SEED).checks(null).apply(request.opening());
        ByteBuf buf = Unpooled.wrappedBuffer(reply);
        try {
            return check.check(request, buf).isOk();
        } finally {
            buf.release();
        }
    }

    /** A regex, a reply, and whether the reply matches for request 17 (to show the case tests what it says). */
    static Stream<Arguments> regexesAndReplies() {
        return Stream.of(
                arguments("^value {{seq}}$", "value 17", true),
                arguments("^value {{seq}}$", "value 170", false),
                arguments("value {{seq}}", "the value 170", true),
                arguments("^x{{seq}}", "x17", true),
                arguments("(?i)^ID={{rand:3}}$", "ID=@RAND", true),
                arguments("a{{seq}}b{{conn}}c{{worker}}", "za17b3c2z", true),
                arguments("\\b{{seq}}\\b", "v 17 w", true),
                arguments("\\b{{seq}}", "v17", false),
                arguments("\\B{{seq}}", "v17", true),
                arguments("(?m)^v{{seq}}$", "a\nv17\nb", true),
                arguments("^v{{seq}}$", "a\nv17\nb", false),
                arguments("v{{seq}}$", "v17\n", true),
                arguments("v{{seq}}\\z", "v17\n", false),
                arguments("v{{seq}}\\Z", "v17\n", true),
                arguments("v{{seq}}(?=\\s|$)", "v17", true),
                arguments("v{{seq}}(?!\\d)", "v17", true),
                arguments("v{{seq}}(?![\\s\\S])", "v17", true),
                arguments("(?s)^.*{{seq}}.*$", "a\n17\nb", true),
                arguments("^(?:{{seq}},)+$", "17,17,17,", true),
                arguments("^(?:x{{seq}})?y$", "y", true),
                arguments("^(a|{{seq}})$", "17", true),
                arguments("^\\G{{seq}}", "17", true),
                arguments("^é{{seq}}\\x{1F600}$", "é17😀", true),
                arguments("{{seq}}", "\n17\n", true),
                arguments("^{{time_us}}:{{conn}}$", "1700000000000123:3", true),
                arguments("^$", "", true),
                // Ways the fast path would match differently, so the pattern is compiled per reply instead.
                arguments("^x{{seq}}+$", "x1777", true),
                arguments("(?<=v){{seq}}", "v17", true),
                arguments("(?<!^){{seq}}", "17", false),
                arguments("(a)\\1{{seq}}", "aa17", true),
                arguments("(?x) v {{seq}} # a comment", "v17", true),
                arguments("(?x) v {{seq}} # a comment {{seq}}", "v17", true),
                arguments("[{{seq}}]+", "7171", true),
                arguments("(?<ricochetValue0>v){{seq}}", "v17", true));
    }

    /**
     * Whichever way a regex is matched (fast: the values read from a prefix as back references; else compiled per
     * connection or per reply), the verdict is the definition's, for the reply as given and for other requests.
     */
    @ParameterizedTest
    @MethodSource("regexesAndReplies")
    void aRegexMatchesAsItsPlaceholdersQuotedValuesWould(String re, String reply, boolean matches17) {
        FakeContext request = FakeContext.request(17);
        byte[] bytes = reply.replace("@RAND", value("rand:3", request).toUpperCase(Locale.ROOT))
                .getBytes(StandardCharsets.UTF_8);
        assertEquals(matches17, reference(re, bytes, request), "the definition, for request 17");
        for (long seq : new long[] {17, 1, 7, 171, 1_000_000_007}) {
            FakeContext other = FakeContext.request(seq);
            assertEquals(reference(re, bytes, other), check(re, bytes, other), re + " for request " + seq);
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "^value {{seq}}$|true", "(?i)id={{rand:4}}|true", "(?m)^{{seq}}(?=,)|true", "^(?:{{seq}},)+$|true",
        "x{{seq}}+|false", "x{{seq}}{2}|false", "(?<=v){{seq}}|false", "(?<!v){{seq}}|false", "(a)\\1{{seq}}|false",
        "(?x){{seq}}|false", "(?ix:{{seq}})|false", "[{{seq}}]|false", "(?<ricochetValue0>v){{seq}}|false",
    })
    void aRegexWithPerRequestValuesTakesTheFastWayWhereItMatchesTheSame(String re, boolean fast) {
        assertEquals(fast, Regex.parse(re, SEED).captured() != null);
    }

    @Test
    void aRegexWithoutPerRequestValuesIsCompiledOnceOrOncePerConnection() {
        assertTrue(Regex.parse("^value \\d+$", SEED).fixed() != null);
        assertTrue(Regex.parse("^v{{conn}}-{{worker}}$", SEED).fixed() == null);
        assertTrue(Regex.parse("^v{{conn}}-{{worker}}$", SEED).captured() == null);
    }

    @Test
    void malformedUtf8IsMatchedAsReplacementCharacters() {
        byte[] reply = {(byte) 0xff, '1', '7', (byte) 0xc3};
        assertTrue(check("^\\x{FFFD}{{seq}}\\x{FFFD}$", reply, FakeContext.request(17)));
        assertTrue(check("^\\x{FFFD}17\\x{FFFD}$", reply, FakeContext.request(17)));
    }

    @Test
    void aReplyLongerThanTheScratchArraysIsMatchedWhole() {
        byte[] reply = ("é".repeat(5000) + "17").getBytes(StandardCharsets.UTF_8);
        assertTrue(check("^é+{{seq}}$", reply, FakeContext.request(17)));
        assertTrue(check("^é+17$", reply, FakeContext.request(17)));
    }
}
