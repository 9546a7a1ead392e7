package io.ricochet.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DurationsTest {

    @ParameterizedTest
    @CsvSource({"30s,30000000000", "500ms,500000000", "2m,120000000000", "1h,3600000000000", "1.5s,1500000000",
        "PT2S,2000000000", "7,7000000000", "0.5,500000000", "250us,250000", "250µs,250000", "10ns,10",
        "1m30s,90000000000", "1h2m3s,3723000000000", "1s500ms,1500000000", "2h30m,9000000000000",
        "1m0.5s,60500000000", "1s1ms1us1ns,1001001001", "2S,2000000000", " 3s ,3000000000", "0s,0"})
    void parsesHumanDurations(String text, long nanos) {
        assertEquals(Duration.ofNanos(nanos), Durations.parse(text));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "s", "10x", "abc", "-1s", "1s1m", "1m1m", "1m30", "30s ms", "1 s", "1.2.3s", "m30s",
        "3000000h"})
    void rejectsOthersNamingTheValueAndTheForms(String text) {
        InvalidValueException e = assertThrows(InvalidValueException.class, () -> Durations.parse(text));
        assertEquals("duration: " + text + " (expected: e.g. 500ms, 2s, 1m30s, 1h or PT2S)", e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"30s", "500ms", "250us", "7ns", "1m30s", "1h", "1h2m3s", "1s500ms", "25h", "0s"})
    void formatRoundTrips(String text) {
        assertEquals(text, Durations.format(Durations.parse(text)));
    }

    @ParameterizedTest
    @CsvSource({"90000,1m30s", "1500,1s500ms", "86400000,24h", "-2000,-2s", "0,0s"})
    void formatWritesTheLargestUnitsFirst(long millis, String text) {
        assertEquals(text, Durations.format(Duration.ofMillis(millis)));
    }
}
