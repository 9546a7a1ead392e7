package io.ricochet.loadgen.payload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PayloadsTest {
    private static final long SEED = 7;

    @TempDir
    Path dir;

    private static String expand(Template template) {
        return TemplateTest.expand(template, FakeContext.request(17));
    }

    @Test
    void textIsItsUtf8BytesWithPlaceholders() {
        assertEquals("get é-17", expand(Payloads.parse("get é-{{seq}}", SEED)));
    }

    @Test
    void aFileIsItsBytesWithPlaceholders() throws IOException {
        Path file = Files.writeString(dir.resolve("request.txt"), "set k{{seq}} {{conn}}\r\n");
        assertEquals("set k17 3\r\n", expand(Payloads.parse("@" + file, SEED)));
    }

    @Test
    void aBinaryFileIsKeptByteForByte() throws IOException {
        byte[] bytes = new byte[256];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) i;
        }
        Path file = Files.write(dir.resolve("request.bin"), bytes);
        Template template = Payloads.parse("@" + file, SEED);
        assertTrue(template.isConstant());
        assertArrayEquals(bytes, template.constantBytes());
    }

    @ParameterizedTest
    @CsvSource({
        "hex:00ff10, 00ff10",
        "hex:DEADbeef, deadbeef",
        "hex:7b7b7365717d7d, 7b7b7365717d7d",
    })
    void hexIsTheBytesItSpellsWithoutPlaceholders(String arg, String bytes) {
        Template template = Payloads.parse(arg, SEED);
        assertTrue(template.isConstant(), "{{seq}} in hex is two braces, seq and two braces");
        assertEquals(bytes, io.netty.buffer.ByteBufUtil.hexDump(template.constantBytes()));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "''|empty (expected: at least one byte; frames are never empty)",
        "hex:|hex: no digits (expected: at least one byte; frames are never empty)",
        "hex:0a1|hex: 3 digits (expected: an even number, two a byte)",
        "hex:0g|hex: 'g' at index 1 (expected: 0-9, a-f or A-F)",
        "hex:00 11|hex: U+0020 at index 2 (expected: 0-9, a-f or A-F)",
        "hex:0١|hex: U+0661 at index 1 (expected: 0-9, a-f or A-F)",
        "@|@: no file named (expected: @FILE)",
        "get {{nothing}}|{{nothing}} names no placeholder (expected: {{seq}}, {{conn}}, {{worker}}, {{rand:N}} or "
                + "{{time_us}})",
    })
    void aWrongPayloadIsAnErrorSayingWhy(String arg, String message) {
        assertEquals(message, assertThrows(IllegalArgumentException.class, () -> Payloads.parse(arg, SEED))
                .getMessage());
    }

    @Test
    void aMissingFileIsAnErrorNamingIt() {
        Path missing = dir.resolve("missing.bin");
        assertEquals("@" + missing + ": no such file", assertThrows(IllegalArgumentException.class,
                () -> Payloads.parse("@" + missing, SEED)).getMessage());
    }

    @Test
    void aDirectoryIsAnErrorNamingIt() {
        String message = assertThrows(IllegalArgumentException.class, () -> Payloads.parse("@" + dir, SEED))
                .getMessage();
        assertEquals("@" + dir + ": not a regular file (a directory; expected: a file)", message);
    }

    @Test
    void anUnreadableFileIsAnErrorNamingIt() throws IOException {
        Path file = Files.writeString(dir.resolve("secret.txt"), "x");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("-w-------"));
        assumeTrue(!Files.isReadable(file), "root reads any file");
        assertEquals("@" + file + ": permission denied", assertThrows(IllegalArgumentException.class,
                () -> Payloads.parse("@" + file, SEED)).getMessage());
    }

    @Test
    void anEmptyFileIsAnError() throws IOException {
        Path file = Files.createFile(dir.resolve("empty.txt"));
        assertEquals("@" + file + ": empty file (expected: at least one byte; frames are never empty)",
                assertThrows(IllegalArgumentException.class, () -> Payloads.parse("@" + file, SEED)).getMessage());
    }

    @Test
    void aFileOverTheLimitIsRefusedBeforeItIsRead() throws IOException {
        Path file = dir.resolve("huge.bin");
        try (RandomAccessFile sparse = new RandomAccessFile(file.toFile(), "rw")) {
            sparse.setLength(Payloads.MAX_FILE_BYTES + 1L);
        }
        assertEquals("@" + file + ": over 16,777,216 bytes (expected: at most 16,777,216)",
                assertThrows(IllegalArgumentException.class, () -> Payloads.parse("@" + file, SEED)).getMessage());
    }

    @Test
    void aFileWithAWrongPlaceholderIsAnErrorNamingTheFile() throws IOException {
        Path file = Files.write(dir.resolve("bad.txt"), "get {{seq".getBytes(StandardCharsets.UTF_8));
        assertEquals("@" + file + ": an unclosed {{ at byte 4 (expected: {{seq}}, {{conn}}, {{worker}}, {{rand:N}} "
                + "or {{time_us}}, closed by }})", assertThrows(IllegalArgumentException.class,
                        () -> Payloads.parse("@" + file, SEED)).getMessage());
    }
}
