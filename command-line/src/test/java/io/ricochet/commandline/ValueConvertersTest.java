package io.ricochet.commandline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.config.TransportKind;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.TypeConversionException;

class ValueConvertersTest {
    @Test
    void eachConverterReadsTheFrameworksUnits() {
        assertEquals(Duration.ofMillis(500), new ValueConverters.DurationConverter().convert("500ms"));
        assertEquals(65_536, new ValueConverters.ByteSizeConverter().convert("64k"));
        assertEquals(100_000, new ValueConverters.CountConverter().convert("100k"));
        assertEquals(3_000_000_000L, new ValueConverters.LongCountConverter().convert("3G"));
        assertEquals(TransportKind.EPOLL, new ValueConverters.TransportKindConverter().convert("epoll"));
    }

    @Test
    void aValueThatDoesNotParseIsOneLineNamingIt() {
        TypeConversionException e = assertThrows(TypeConversionException.class,
                () -> new ValueConverters.DurationConverter().convert("soon"));
        assertTrue(e.getMessage().contains("soon"), e.getMessage());
        assertTrue(!e.getMessage().contains("\n"), e.getMessage());
        assertThrows(TypeConversionException.class, () -> new ValueConverters.ByteSizeConverter().convert("lots"));
        assertThrows(TypeConversionException.class, () -> new ValueConverters.CountConverter().convert("many"));
        assertThrows(TypeConversionException.class, () -> new ValueConverters.TransportKindConverter().convert("dpdk"));
    }
}
