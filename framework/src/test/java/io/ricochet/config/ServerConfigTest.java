package io.ricochet.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ServerConfigTest {

    @Test
    void defaultsFollowTheWireContract() {
        ServerConfig config = ServerConfig.builder().build();
        assertEquals("127.0.0.1", config.host());
        assertEquals(7000, config.tcpPort());
        assertEquals(ServerConfig.DISABLED, config.udpPort(), "UDP only when asked for");
        assertEquals(4094, config.maxFrame());
        assertEquals(Duration.ofSeconds(30), config.idleTimeout());
        assertEquals(TransportKind.AUTO, config.transport());
        assertEquals(Duration.ofSeconds(2), config.lingerTimeout());
    }

    /** Connections past the open-file limit once made accept fail on every port of the process. */
    @Test
    void connectionsAreCappedBelowTheOpenFileLimitByDefault() {
        long limit = OpenFileLimit.current();
        int cap = ServerConfig.builder().build().maxConnections();
        assertEquals(OpenFileLimit.connectionCap(), cap);
        if (limit > 0) {
            assertTrue(cap < limit, cap + " of " + limit);
        }
        assertEquals(18_976, OpenFileLimit.connectionCap(20_000));
        assertEquals(896, OpenFileLimit.connectionCap(1024));
        assertEquals(7, OpenFileLimit.connectionCap(8));
        assertEquals(Integer.MAX_VALUE - 1024, OpenFileLimit.connectionCap(Integer.MAX_VALUE));
        assertEquals(Integer.MAX_VALUE, OpenFileLimit.connectionCap(-1));
    }

    /**
     * A server's budget keeps room for what is open and for the metrics port's connections: at a 1,024 limit, seven
     * eighths for connections left the metrics port's accepts failing once they were all open.
     */
    @Test
    void aServersBudgetKeepsRoomForWhatIsOpenAndTheMetricsPort() {
        OpenFileLimit.Budget small = OpenFileLimit.budget(1024, 40, 128);
        assertEquals(1024 - 40 - 128 - OpenFileLimit.SPARE, small.connections());
        assertEquals("connections: at most 792 over all TCP ports (open-file limit 1,024, kept 232: 40 open now, 128 "
                + "for the metrics port, 64 spare)", small.describe());
        // A large limit keeps the plain reserve, which is more.
        assertEquals(OpenFileLimit.connectionCap(20_000), OpenFileLimit.budget(20_000, 40, 128).connections());
        assertEquals(1, OpenFileLimit.budget(100, 40, 128).connections(), "at least one");
        assertEquals(Integer.MAX_VALUE, OpenFileLimit.budget(-1, -1, 128).connections());
        assertTrue(OpenFileLimit.budget(128).connections() > 0);
    }

    @Test
    void maxFrameFollowsTheLengthFieldUnlessSet() {
        assertEquals(16 * 1024 * 1024, ServerConfig.builder().lengthField(LengthField.FOUR).build().maxFrame());
        assertEquals(100, ServerConfig.builder().lengthField(LengthField.FOUR).maxFrame(100).build().maxFrame());
    }

    @Test
    void udpBodyLimitIsTheDatagramLimitLessTheField() {
        assertEquals(65_503, ServerConfig.builder().lengthField(LengthField.FOUR).build().maxUdpBody());
        assertEquals(4094, ServerConfig.builder().build().maxUdpBody());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "maxFrame|0|maxFrame: 0 (expected: 1..65535)",
        "maxFrame2|65536|maxFrame: 65536 (expected: 1..65535)",
        "tcpPort|70000|tcpPort: 70000 (expected: -1..65535)",
        "maxConnections|0|maxConnections: 0 (expected: > 0)",
        "ioThreads|-1|ioThreads: -1 (expected: 0..1024)",
        "udpChannels|-1|udpChannels: -1 (expected: 0..1024)",
        "idleTimeout|0|idleTimeout: 0s (expected: > 0)",
        "idleTimeout2|90|idleTimeout: -1m30s (expected: > 0)",
        "watermarks|10|writeBufferHighWatermark: 5 (expected: 10..2147483647)",
    })
    void validationNamesTheFieldAndTheValue(String field, int value, String message) {
        ServerConfig.Builder b = ServerConfig.builder();
        switch (field) {
            case "maxFrame", "maxFrame2" -> b.maxFrame(value);
            case "tcpPort" -> b.tcpPort(value);
            case "maxConnections" -> b.maxConnections(value);
            case "ioThreads" -> b.ioThreads(value);
            case "udpChannels" -> b.udpChannels(value);
            case "idleTimeout" -> b.idleTimeout(Duration.ofSeconds(value));
            case "idleTimeout2" -> b.idleTimeout(Duration.ofSeconds(-value));
            case "watermarks" -> b.writeBufferWatermarks(value, 5);
            default -> throw new AssertionError(field);
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, b::build);
        assertEquals(message, e.getMessage());
        // The field apart, for a command line to name its flag instead.
        assertEquals(message.substring(0, message.indexOf(':')),
                assertInstanceOf(InvalidValueException.class, e).field());
    }

    @Test
    void atLeastOneListener() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ServerConfig.builder().tcpPort(ServerConfig.DISABLED).udpPort(ServerConfig.DISABLED).build());
        assertEquals("tcpPort, udpPort, quicPort: all disabled (expected: at least one listener)", e.getMessage());
    }
}
