package io.ricochet.commandline;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ricochet.config.InvalidValueException;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;

class UsageErrorsTest {
    @Command(name = "probe")
    static final class Probe {
    }

    private final CommandLine cli = new CommandLine(new Probe());

    @Test
    void aFieldWithAFlagIsNamedByTheFlag() {
        InvalidValueException refused = new InvalidValueException("maxFrame", "0", "1..65535");
        assertEquals("invalid option value: --max-frame 0 (expected: 1..65535)",
                UsageErrors.invalidValue(cli, refused, Map.of("maxFrame", "--max-frame")::get).getMessage());
    }

    @Test
    void anyOtherRefusalIsSaidAsItIs() {
        InvalidValueException refused = new InvalidValueException("ioThreads", "0", "> 0");
        assertEquals("invalid option value: " + refused.getMessage(),
                UsageErrors.invalidValue(cli, refused, Map.<String, String>of()::get).getMessage());
        assertEquals("invalid option value: ports clash",
                UsageErrors.invalidValue(cli, new IllegalArgumentException("ports clash"), f -> "--x").getMessage());
    }
}
