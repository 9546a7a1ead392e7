package io.ricochet.server;

import java.util.concurrent.CountDownLatch;
import sun.misc.Signal;

/**
 * Turns SIGTERM and SIGINT into a graceful stop. The JVM's own handling would run shutdown hooks and
 * exit 143; taking the signals here lets the server drain and the process exit 0.
 */
final class SignalShutdown {
    private final CountDownLatch requested = new CountDownLatch(1);

    void install() {
        Signal.handle(new Signal("TERM"), signal -> requested.countDown());
        Signal.handle(new Signal("INT"), signal -> requested.countDown());
    }

    void await() throws InterruptedException {
        requested.await();
    }
}
