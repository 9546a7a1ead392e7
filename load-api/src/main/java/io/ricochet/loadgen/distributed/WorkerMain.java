package io.ricochet.loadgen.distributed;

import io.ricochet.config.Durations;
import io.ricochet.config.LeakDetection;
import io.ricochet.loadgen.engine.Targets;
import io.ricochet.transport.IoTransport;
import java.net.InetSocketAddress;
import java.time.Duration;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * A local worker's process: {@code java -cp CLASSPATH io.ricochet.loadgen.distributed.WorkerMain --controller=HOST:PORT
 * --index=N [--connect-timeout=120s]}, with the run's secret in {@value RunSecret#ENV}. {@link LocalExecutor} starts
 * it on its own class path, which is all it needs: no command-line library, no scenario to parse. A bad argument is
 * one line and exit status 2.
 *
 * <pre>{@code
 * RICOCHET_RUN_SECRET=... java -cp app.jar io.ricochet.loadgen.distributed.WorkerMain --controller=127.0.0.1:41234 --index=0
 * }</pre>
 */
public final class WorkerMain {
    private static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(120);

    private WorkerMain() {
    }

    public static void main(String[] args) {
        LeakDetection.offUnlessAsked();
        IoTransport.preferOneShotIoUringPoll();
        InetSocketAddress controller = null;
        Integer index = null;
        Duration connectTimeout = DEFAULT_CONNECT_TIMEOUT;
        try {
            for (String arg : args) {
                if (arg.startsWith("--controller=")) {
                    Targets one = Targets.parse(arg.substring("--controller=".length()));
                    controller = one.first();
                } else if (arg.startsWith("--index=")) {
                    index = Integer.parseInt(arg.substring("--index=".length()));
                } else if (arg.startsWith("--connect-timeout=")) {
                    connectTimeout = Durations.parse(arg.substring("--connect-timeout=".length()));
                } else {
                    throw new IllegalArgumentException("unknown argument " + arg);
                }
            }
            if (controller == null || index == null) {
                throw new IllegalArgumentException("--controller=HOST:PORT and --index=N are required");
            }
        } catch (IllegalArgumentException e) {
            System.err.println("worker: " + e.getMessage());
            System.exit(2);
            return;
        }
        System.exit(serve(controller, index, connectTimeout));
    }

    /**
     * Runs worker {@code index} with the run's secret from the environment; Ctrl-C in a terminal, which reaches the
     * whole process group, is left to the controller, which stops every worker and merges what they measured. SIGTERM
     * (a pod deleted) still ends it.
     */
    public static int serve(InetSocketAddress controller, int index, Duration connectTimeout) {
        String secret = System.getenv(RunSecret.ENV);
        if (secret == null || secret.isEmpty()) {
            System.err.println("worker: $" + RunSecret.ENV + " is not set: a worker needs the secret of the run its "
                    + "controller started it for");
            return 2;
        }
        Signal interrupt = new Signal("INT");
        SignalHandler previous = Signal.handle(interrupt, SignalHandler.SIG_IGN);
        try {
            return Worker.run(controller, index, connectTimeout, secret, System.err);
        } catch (Exception e) {
            System.err.println("worker " + index + ": " + (e.getMessage() == null ? e.toString() : e.getMessage()));
            return 1;
        } finally {
            Signal.handle(interrupt, previous);
        }
    }
}
