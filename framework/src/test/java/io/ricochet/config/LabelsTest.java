package io.ricochet.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.ricochet.noise.NoiseMode;
import io.ricochet.tls.TlsProvider;
import org.junit.jupiter.api.Test;

class LabelsTest {

    @Test
    void labelsAreLowercaseNames() {
        assertEquals("io_uring", Labels.of(TransportKind.IO_URING));
        assertEquals("io_uring", TransportKind.IO_URING.label());
        assertEquals("stream", NoiseMode.STREAM.label());
    }

    @Test
    void parsesInAnyCase() {
        assertEquals(TransportKind.IO_URING, TransportKind.fromLabel("IO_uring"));
        assertEquals(NoiseMode.PACKAGE, NoiseMode.parse("Package"));
        assertEquals(TlsProvider.OPENSSL, TlsProvider.parse("OpenSSL"));
    }

    @Test
    void anUnknownLabelNamesWhatWasExpected() {
        assertEquals("transport: kqueue (expected: auto, io_uring, epoll or nio)",
                assertThrows(IllegalArgumentException.class, () -> TransportKind.fromLabel("kqueue")).getMessage());
        assertEquals("encrypt: none (expected: package or stream)",
                assertThrows(IllegalArgumentException.class, () -> NoiseMode.parse("none")).getMessage());
        assertEquals("tls provider: boring (expected: auto, openssl or jdk)",
                assertThrows(IllegalArgumentException.class, () -> TlsProvider.parse("boring")).getMessage());
    }
}
