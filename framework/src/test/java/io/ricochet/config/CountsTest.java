package io.ricochet.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class CountsTest {

    @ParameterizedTest
    @CsvSource({"1500,1500", "10k,10000", "10K,10000", "1.5k,1500", "2M,2000000", "1G,1000000000", "0,0", "-1,-1",
        "2147483647,2147483647", "' 7 ',7", "1.0,1"})
    void parsesWholeCountsWithDecimalSuffixes(String text, int count) {
        assertEquals(count, Counts.parseInt(text));
        assertEquals(count, Counts.parseLong(text));
    }

    @ParameterizedTest
    @CsvSource({"0.04,0.04", "2.5k,2500", "1.2345k,1234.5", "1M,1000000", ".5,0.5"})
    void parsesDecimals(String text, double value) {
        assertEquals(value, Counts.parseDecimal(text));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "k", "10m", "10x", "1kk", "abc", "1e3", "10 k", "1,000", "--1"})
    void rejectsOtherFormsNamingThem(String text) {
        InvalidValueException e = assertThrows(InvalidValueException.class, () -> Counts.parseLong(text));
        assertEquals("count: " + text + " (expected: a number with an optional k, M or G, e.g. 1500, 10k, 1.5M)",
                e.getMessage());
        assertThrows(InvalidValueException.class, () -> Counts.parseDecimal(text));
    }

    @ParameterizedTest
    @ValueSource(strings = {"1.2345k", "0.5", "1.0000001M"})
    void rejectsAFractionForAWholeCount(String text) {
        InvalidValueException e = assertThrows(InvalidValueException.class, () -> Counts.parseInt(text));
        assertEquals("count: " + text + " (expected: a whole number, e.g. 1500, 10k, 1.5k)", e.getMessage());
    }

    @ParameterizedTest
    @CsvSource({"3G,int,at most 2147483647", "2147483648,int,at most 2147483647", "-3G,int,at least -2147483648",
        "9223372036854775808,long,at most 9223372036854775807", "10000000000G,long,at most 9223372036854775807"})
    void rejectsWhatDoesNotFit(String text, String type, String expected) {
        InvalidValueException e = assertThrows(InvalidValueException.class,
                () -> { long ignored = type.equals("int") ? Counts.parseInt(text) : Counts.parseLong(text); });
        assertEquals(expected, e.expected());
        assertEquals(text, e.value());
    }
}
