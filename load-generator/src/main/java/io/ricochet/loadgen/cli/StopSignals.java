package io.ricochet.loadgen.cli;

import java.io.PrintStream;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Ctrl-C (SIGINT) and SIGTERM end a run early with what it measured: the first one marks the run stopped and runs the
 * stop action, so the run drains, prints its summary and writes its report; the run then exits 128 + the signal's
 * number (130, 143), as shells expect. A second signal exits at once. Closing restores the handlers found before.
 */
final class StopSignals implements AutoCloseable {
    private static final List<String> NAMES = List.of("INT", "TERM");

    private final Map<Signal, SignalHandler> previous = new HashMap<>();
    private final PrintStream err;
    private final AtomicReference<Signal> received = new AtomicReference<>();
    private volatile Runnable onStop = () -> { };

    private StopSignals(PrintStream err) {
        this.err = err;
    }

    static StopSignals install(PrintStream err) {
        StopSignals signals = new StopSignals(err);
        for (String name : NAMES) {
            Signal signal = new Signal(name);
            try {
                signals.previous.put(signal, Signal.handle(signal, signals::handle));
            } catch (IllegalArgumentException e) {
                // The JVM keeps it (-Xrs): the signal then ends the process as it would have.
            }
        }
        return signals;
    }

    /** What else a stop does (the controller stops its workers); run at once when a signal came already. */
    void onStop(Runnable action) {
        onStop = action;
        if (received.get() != null) {
            action.run();
        }
    }

    private void handle(Signal signal) {
        // INT and TERM run on threads of their own: only one of them is the first.
        if (!received.compareAndSet(null, signal)) {
            System.exit(exitStatusFor(signal));
        }
        err.println("load-generator: SIG" + signal.getName() + ": stopping; the summary and report cover what ran "
                + "(again to exit at once)");
        onStop.run();
    }

    boolean received() {
        return received.get() != null;
    }

    /** {@code exit}, or 128 + the signal's number when a signal ended the run. */
    int exitStatus(int exit) {
        Signal signal = received.get();
        return signal == null ? exit : exitStatusFor(signal);
    }

    private static int exitStatusFor(Signal signal) {
        return 128 + signal.getNumber();
    }

    @Override
    public void close() {
        previous.forEach(Signal::handle);
    }
}
