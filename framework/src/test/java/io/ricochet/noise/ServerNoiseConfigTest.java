package io.ricochet.noise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ServerNoiseConfigTest {
    private static final NoiseKeyPair KEY = NoiseKeyPair.generate();

    @Test
    void theDefaultsBoundHandshakesAndThePerAddressBoundFollowsTheTotal() {
        ServerNoiseConfig defaults = ServerNoiseConfig.of(KEY);
        assertEquals(Duration.ofSeconds(10), defaults.handshakeTimeout());
        assertEquals(1024, defaults.maxHandshakes());
        assertEquals(128, defaults.maxHandshakesPerAddress());
        assertTrue(defaults.resolvedHandshakeThreads() >= 1);
        assertEquals(8, ServerNoiseConfig.builder(KEY).maxHandshakes(64).build().maxHandshakesPerAddress());
        assertEquals(1, ServerNoiseConfig.builder(KEY).maxHandshakes(3).build().maxHandshakesPerAddress());
        assertEquals(3, ServerNoiseConfig.builder(KEY).handshakeThreads(3).build().resolvedHandshakeThreads());
    }

    @Test
    void aBadBoundIsNamedWithItsValue() {
        assertEquals("maxHandshakes: 0 (expected: > 0)", assertThrows(IllegalArgumentException.class,
                () -> ServerNoiseConfig.builder(KEY).maxHandshakes(0).build()).getMessage());
        assertEquals("maxHandshakesPerAddress: 9 (expected: 1..8)", assertThrows(IllegalArgumentException.class,
                () -> ServerNoiseConfig.builder(KEY).maxHandshakes(8).maxHandshakesPerAddress(9).build()).getMessage());
        assertEquals("handshakeThreads: -1 (expected: 0..1024)", assertThrows(IllegalArgumentException.class,
                () -> ServerNoiseConfig.builder(KEY).handshakeThreads(-1).build()).getMessage());
        assertEquals("handshakeTimeout: 0s (expected: > 0)", assertThrows(IllegalArgumentException.class,
                () -> ServerNoiseConfig.builder(KEY).handshakeTimeout(Duration.ZERO).build()).getMessage());
    }
}
