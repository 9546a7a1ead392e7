package io.ricochet.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DurationsTest {

    @ParameterizedTest
    @CsvSource({"30s,30000", "500ms,500", "2m,120000", "1h,3600000", "1.5s,1500", "PT2S,2000", "7,7000"})
    void parsesHumanDurations(String text, long millis) {
        assertEquals(Duration.ofMillis(millis), Durations.parse(text));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "s", "10x", "abc", "-1s"})
    void rejectsOthersNamingTheValue(String text) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Durations.parse(text));
        assertEquals("duration: " + text + " (expected: e.g. 500ms, 2s, 5m, 1h)", e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"30s", "500ms", "250us", "7ns"})
    void formatRoundTrips(String text) {
        assertEquals(text, Durations.format(Durations.parse(text)));
    }
}
