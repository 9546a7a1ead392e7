package io.ricochet.examples.kv;

import java.util.concurrent.CompletableFuture;
import sun.misc.Signal;

/**
 * Turns SIGTERM and SIGINT into a graceful stop. The JVM's own handling runs shutdown hooks and exits 143 while the
 * server may still be draining; taking the signals lets it drain and the process exit 0, as the echo server does.
 */
final class SignalStop {
    private SignalStop() {
    }

    /** A future that completes at the first SIGTERM or SIGINT. */
    static CompletableFuture<Void> install() {
        CompletableFuture<Void> requested = new CompletableFuture<>();
        Signal.handle(new Signal("TERM"), signal -> requested.complete(null));
        Signal.handle(new Signal("INT"), signal -> requested.complete(null));
        return requested;
    }
}
