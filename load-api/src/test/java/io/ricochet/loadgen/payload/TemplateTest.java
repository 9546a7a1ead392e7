package io.ricochet.loadgen.payload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class TemplateTest {
    private static final long SEED = 42;

    /** The bytes of {@code template} for {@code request}, by write() and by expand(), which must agree. */
    static String expand(Template template, FakeContext request) {
        ByteBuf out = Unpooled.buffer();
        try {
            template.write(request, out);
            int[] length = new int[1];
            byte[] bytes = template.expand(request, new byte[1], length);
            String expanded = new String(bytes, 0, length[0], StandardCharsets.UTF_8);
            assertEquals(expanded, out.toString(StandardCharsets.UTF_8), "write() and expand() agree");
            assertEquals(expanded, template.expandToString(request));
            assertArrayEquals(expanded.getBytes(StandardCharsets.UTF_8), template.bytesFor(request));
            assertTrue(length[0] <= template.maxLength());
            return expanded;
        } finally {
            out.release();
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "get {{seq}}|get 17",
        "{{conn}}|3",
        "{{worker}}|2",
        "t={{time_us}}|t=1700000000000123",
        "k-{{ conn }}-{{seq}}!|k-3-17!",
        "{{seq}}{{seq}}|1717",
        "plain text|plain text",
        "{ {seq}} }}|{ {seq}} }}",
        "é {{seq}} ü|é 17 ü",
    })
    void placeholdersAreFilledInAndTheRestKeptByteForByte(String text, String expected) {
        assertEquals(expected, expand(Template.parse(text, SEED), FakeContext.request(17)));
    }

    @ParameterizedTest
    @ValueSource(longs = {0, 1, 9, 10, 99, 100, 12_345, -1, -10, Long.MAX_VALUE, Long.MIN_VALUE,
        999_999_999_999_999_999L, 1_000_000_000_000_000_000L})
    void numbersAreWrittenInDecimalWhateverTheirSize(long sequence) {
        assertEquals(Long.toString(sequence), expand(Template.parse("{{seq}}", SEED), FakeContext.request(sequence)));
    }

    @Test
    void randomBytesAreLowercaseHexAndTheSameWhenTheRequestIsRegenerated() {
        Template template = Template.parse("x{{rand:13}}y", SEED);
        String first = expand(template, FakeContext.request(5));
        assertTrue(first.matches("x[0-9a-f]{26}y"), first);
        assertEquals(first, expand(Template.parse("x{{rand:13}}y", SEED), FakeContext.request(5)), "regenerated");
        assertNotEquals(first, expand(template, FakeContext.request(6)), "another request");
        assertNotEquals(first, expand(template, new FakeContext(4, 5)), "another connection");
        assertNotEquals(first, expand(Template.parse("x{{rand:13}}y", SEED + 1), FakeContext.request(5)),
                "another seed");
    }

    @Test
    void theNthRandomPlaceholderRepeatsTheNthOfAnotherTemplate() {
        FakeContext request = FakeContext.request(9);
        String payload = expand(Template.parse("set {{seq}} {{rand:8}} {{rand:4}}", SEED), request);
        String first = expand(Template.parse("{{rand:8}}", SEED), request);
        String both = expand(Template.parse("{{rand:2}}:{{rand:4}}", SEED), request);
        assertEquals("set 9 " + first + " " + both.substring(5), payload);
        assertTrue(first.startsWith(both.substring(0, 4)), "a shorter one is a prefix");
        assertNotEquals(first.substring(0, 8), both.substring(5), "the second differs from the first");
    }

    @Test
    void aScratchArrayTooShortGrowsAndOneOfMaxLengthDoesNot() {
        Template template = Template.parse("{{rand:100}}-{{seq}}-{{time_us}}", SEED);
        int[] length = new int[1];
        byte[] big = new byte[template.maxLength()];
        assertTrue(big == template.expand(FakeContext.request(Long.MIN_VALUE), big, length));
        byte[] grown = template.expand(FakeContext.request(1), new byte[3], length);
        assertEquals(200 + 1 + 1 + 1 + 16, length[0]);
        assertTrue(grown.length >= length[0]);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "get {{sq}}|{{sq}} names no placeholder (expected: {{seq}}, {{conn}}, {{worker}}, {{rand:N}} or {{time_us}})",
        "get {{seq|an unclosed {{ at byte 4 (expected: {{seq}}, {{conn}}, {{worker}}, {{rand:N}} or {{time_us}}, "
                + "closed by }})",
        "{{rand:0}}|{{rand:0}} (expected: {{rand:N}} with N from 1 to 65536)",
        "{{rand:65537}}|{{rand:65537}} (expected: {{rand:N}} with N from 1 to 65536)",
        "{{rand:x}}|{{rand:x}} (expected: {{rand:N}} with N from 1 to 65536)",
    })
    void aWrongPlaceholderIsAnErrorSayingWhich(String text, String message) {
        assertEquals(message, assertThrows(IllegalArgumentException.class, () -> Template.parse(text, SEED))
                .getMessage());
    }

    @Test
    void itDescribesItsPlaceholders() {
        Template template = Template.parse("a{{ conn }}b{{worker}}c", SEED);
        assertFalse(template.isConstant());
        assertFalse(template.variesPerRequest());
        assertEquals(2, template.placeholderCount());
        assertEquals("{{ conn }}", template.placeholderSource(0));
        assertEquals("a<0>b<1>c", template.replacePlaceholders(i -> "<" + i + ">"));
        assertTrue(Template.parse("{{conn}}{{seq}}", SEED).variesPerRequest());
        assertTrue(Template.parse("{{time_us}}", SEED).usesTime());
        assertTrue(Template.parse("{{rand:1}}", SEED).variesPerRequest());
    }

    @Test
    void literalBytesAreKeptAsTheyAre() {
        byte[] bytes = {0, '{', '{', 's', 'e', 'q', '}', '}', (byte) 0xff};
        Template template = Template.literalOf(bytes);
        assertTrue(template.isConstant());
        assertArrayEquals(bytes, template.constantBytes());
        ByteBuf out = Unpooled.buffer();
        try {
            template.write(FakeContext.request(1), out);
            assertArrayEquals(bytes, ByteBufUtil.getBytes(out));
        } finally {
            out.release();
        }
    }
}
