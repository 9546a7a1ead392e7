package io.ricochet.testing;

import io.ricochet.config.TransportKind;
import io.ricochet.transport.IoTransport;
import java.util.Arrays;
import java.util.stream.Stream;

/** The transports that load on this machine, for parameterized socket tests. */
public final class Transports {
    private Transports() {
    }

    public static Stream<TransportKind> available() {
        return Arrays.stream(TransportKind.values())
                .filter(kind -> kind != TransportKind.AUTO)
                .filter(IoTransport::isAvailable);
    }
}
