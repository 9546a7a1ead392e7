package io.ricochet.loadgen.payload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ExpectationTest {
    private static final long SEED = 7;
    private static final String MODES = "(expected: reversed, echo, any, equals:TEXT, equals:@FILE, regex:RE or "
            + "length:N)";

    @ParameterizedTest
    @ValueSource(strings = {"reversed", "echo", "any", "equals:value {{seq}}", "equals:hex:00ff", "regex:^v\\d+$",
        "regex:^value {{seq}}$", "length:5"})
    void eachModeParsesAndPrintsAsGiven(String arg) {
        assertEquals(arg, Expectation.parse(arg, SEED).toString());
    }

    @Test
    void theFactoriesMakeWhatParseDoes() {
        assertSame(Expectation.reversed(), Expectation.parse("reversed", SEED));
        assertSame(Expectation.echo(), Expectation.parse("echo", SEED));
        assertSame(Expectation.any(), Expectation.parse("any", SEED));
        assertEquals("length:8", Expectation.length(8).toString());
        assertEquals("regex:a+", Expectation.regex("a+", SEED).toString());
        assertEquals("equals:v {{ seq }}", Expectation.equalTo(Template.parse("v {{ seq }}", SEED)).toString());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "foo|mode: foo " + MODES,
        "''|mode: empty " + MODES,
        "equals|mode: equals " + MODES,
        "Echo|mode: Echo " + MODES,
        "lenght:5|mode: lenght " + MODES,
        "regex:[a|regex:[a: Unclosed character class near index 1",
        "regex:a{{seq}}(|regex:a{{seq}}(: Unclosed group near index 9",
        "regex:(?<x>a)(?<x>b)|regex:(?<x>a)(?<x>b): Named capturing group <x> is already defined near index 11",
        "regex:{{sequence}}|regex:{{sequence}}: {{sequence}} names no placeholder (expected: {{seq}}, {{conn}}, "
                + "{{worker}}, {{rand:N}} or {{time_us}})",
        "regex:|regex: empty (expected: a pattern; any matches every reply)",
        "length:0|length: 0 (expected: >= 1)",
        "length:-3|length: -3 (expected: >= 1)",
        "length:five|length: five (expected: a whole number of bytes, >= 1)",
        "length:|length:  (expected: a whole number of bytes, >= 1)",
        "equals:|equals: empty (expected: at least one byte; frames are never empty)",
        "equals:hex:0|equals: hex: 1 digits (expected: an even number, two a byte)",
        "equals:@|equals: @: no file named (expected: @FILE)",
        "equals:{{seq|equals: an unclosed {{ at byte 0 (expected: {{seq}}, {{conn}}, {{worker}}, {{rand:N}} or "
                + "{{time_us}}, closed by }})",
    })
    void aWrongExpectationIsAnErrorThatDoesNotNameTheFlag(String arg, String message) {
        assertEquals(message, assertThrows(IllegalArgumentException.class, () -> Expectation.parse(arg, SEED))
                .getMessage());
    }

    @Test
    void equalsReadsAFileAsAPayloadDoes() {
        String message = assertThrows(IllegalArgumentException.class,
                () -> Expectation.parse("equals:@/no/such/file", SEED)).getMessage();
        assertEquals("equals: @/no/such/file: no such file", message);
    }

    @ParameterizedTest
    @ValueSource(strings = {"x{{ seq }}[a-", "{{seq}}(", "{{rand:8}}{{conn}}*+*", "(?<n>{{seq}})(?<n>)", "a{{worker}}\\"})
    void aRegexErrorIndexIsWhereTheUsersTextHasIt(String re) {
        // Each placeholder is checked as a quoted dummy of its own length, so the error is where Java puts it in the
        // user's text with a literal of that length in the placeholder's place.
        Matcher placeholder = Pattern.compile("\\{\\{[^}]*}}").matcher(re);
        StringBuilder sameLength = new StringBuilder();
        while (placeholder.find()) {
            placeholder.appendReplacement(sameLength, "0".repeat(placeholder.group().length()));
        }
        placeholder.appendTail(sameLength);
        PatternSyntaxException java = assertThrows(PatternSyntaxException.class,
                () -> Pattern.compile(sameLength.toString()));
        assertEquals("regex:" + re + ": " + java.getDescription() + " near index " + java.getIndex(), assertThrows(
                IllegalArgumentException.class, () -> Expectation.parse("regex:" + re, SEED)).getMessage());
    }

    @Test
    void factoriesCheckTheirArguments() {
        assertEquals("length: 0 (expected: >= 1)",
                assertThrows(IllegalArgumentException.class, () -> Expectation.length(0)).getMessage());
        assertEquals("reply: empty (expected: at least one byte; frames are never empty)", assertThrows(
                IllegalArgumentException.class, () -> Expectation.equalTo(Template.literalOf(new byte[0])))
                .getMessage());
    }
}
