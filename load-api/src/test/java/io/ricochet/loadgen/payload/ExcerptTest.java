package io.ricochet.loadgen.payload;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ExcerptTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "76616c7565203137|\"value 17\"",
        "00ff0a0d0922 5c7f|\"\\x00\\xff\\n\\r\\t\\\"\\\\\\x7f\"",
        "c3a9e282acf09f9880|\"é€😀\"",
        "c3|\"\\xc3\"",
        "c328|\"\\xc3(\"",
        "eda080|\"\\xed\\xa0\\x80\"",
        "c0af|\"\\xc0\\xaf\"",
        "e280ae|\"\\xe2\\x80\\xae\"",
        "c2a0|\"\\xc2\\xa0\"",
    })
    void bytesAreQuotedPrintably(String hex, String quoted) {
        assertEquals(quoted, Excerpt.quote(ByteBufUtil.decodeHexDump(hex.replace(" ", ""))));
    }

    @Test
    void aLongMessageIsCutAtFortyCharactersAndSaysSo() {
        byte[] bytes = "0123456789".repeat(10).getBytes(StandardCharsets.US_ASCII);
        assertEquals("\"0123456789012345678901234567890123456789\"...", Excerpt.quote(bytes));
        StringBuilder out = new StringBuilder();
        assertEquals(25, Excerpt.quote(out, bytes, bytes.length, 75));
        assertEquals("...\"5678901234567890123456789\"", out.toString(), "to the end: no ... after");
        assertEquals(10, Excerpt.quote(new StringBuilder(), new byte[60], 60, 0), "\\x00 is four characters");
    }

    @Test
    void aReplyIsQuotedWithoutMovingItsIndices() {
        ByteBuf reply = Unpooled.copiedBuffer("xxhello", StandardCharsets.US_ASCII).skipBytes(2);
        try {
            StringBuilder out = new StringBuilder();
            assertEquals(3, Excerpt.quote(out, reply, 2));
            assertEquals("...\"llo\"", out.toString());
            assertEquals(2, reply.readerIndex());
        } finally {
            reply.release();
        }
    }

    @Test
    void plainTextKeepsBackslashesAndCutsControlCharacters() {
        assertEquals("^value \\d+$\\x0a", Excerpt.plain("^value \\d+$\n"));
        assertEquals("a".repeat(40) + "...", Excerpt.plain("a".repeat(41)));
    }
}
