package io.ricochet.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ByteSizesTest {

    @ParameterizedTest
    @CsvSource({"64,64", "64B,64", "64b,64", "1k,1024", "1K,1024", "1KB,1024", "1kb,1024", "1KiB,1024", "1.5k,1536",
        "4k,4096", "1M,1048576", "1MB,1048576", "1MiB,1048576", "16MB,16777216", "1G,1073741824", "1GiB,1073741824",
        "0,0", "-1,-1", "' 2k ',2048"})
    void parsesBinaryUnits(String text, int bytes) {
        assertEquals(bytes, ByteSizes.parseInt(text));
        assertEquals(bytes, ByteSizes.parseLong(text));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "B", "1x", "1kbit", "1TB", "1e3", "1 k", "1,024", "k1"})
    void rejectsOtherFormsNamingThem(String text) {
        InvalidValueException e = assertThrows(InvalidValueException.class, () -> ByteSizes.parseLong(text));
        assertEquals("size: " + text + " (expected: bytes, e.g. 64, 64B, 4k, 4KiB, 1MB, 1.5M)", e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"1.3k", "0.5", "0.5B"})
    void rejectsAFractionOfAByte(String text) {
        InvalidValueException e = assertThrows(InvalidValueException.class, () -> ByteSizes.parseInt(text));
        assertEquals("a whole number of bytes, e.g. 1536 or 1.5k", e.expected());
    }

    @ParameterizedTest
    @CsvSource({"2G,int,at most 2147483647 bytes", "2147483648,int,at most 2147483647 bytes",
        "-3G,int,at least -2147483648 bytes", "10000000000G,long,at most 9223372036854775807 bytes"})
    void rejectsWhatDoesNotFit(String text, String type, String expected) {
        InvalidValueException e = assertThrows(InvalidValueException.class,
                () -> { long ignored = type.equals("int") ? ByteSizes.parseInt(text) : ByteSizes.parseLong(text); });
        assertEquals(expected, e.expected());
        assertEquals(text, e.value());
    }
}
