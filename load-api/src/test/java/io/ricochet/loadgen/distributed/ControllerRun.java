package io.ricochet.loadgen.distributed;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.ricochet.loadgen.engine.Targets;
import io.ricochet.loadgen.report.DistributedSummary;
import io.ricochet.loadgen.scenario.Command;
import io.ricochet.loadgen.scenario.Scenario;
import io.ricochet.rpc.RpcClientConfig;
import io.ricochet.rpc.RpcClients;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A {@link Controller} running in the background with no workers launched: the test plays every worker,
 * and any stranger, with {@link FakeWorker}s on the coordination endpoint.
 */
final class ControllerRun implements AutoCloseable {
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(10);

    final Controller controller;
    private final ByteArrayOutputStream live = new ByteArrayOutputStream();
    /** The run's secret: the test's workers, and its strangers, present it unless they are rogue. */
    static final String SECRET = "test-run-secret";
    private final RpcClients clients = RpcClients.create(RpcClientConfig.builder().bearerToken(SECRET).build(),
            new SimpleMeterRegistry());
    private final RpcClients rogues = RpcClients.create(RpcClientConfig.builder().name("rogue").build(), null);
    private final List<FakeWorker> connected = new ArrayList<>();
    private final CompletableFuture<DistributedSummary> summary;

    ControllerRun(int workers) {
        this(workers, Duration.ofSeconds(1), (URI) null);
    }

    /** With the workers' {@code interval}, and the server's metrics at {@code scrape} (null for none). */
    ControllerRun(int workers, Duration interval, URI scrape) {
        this(workers, interval, scrape == null ? List.of() : List.of(scrape), Duration.ofSeconds(60), Duration.ZERO);
    }

    /**
     * With the workers' {@code interval} and the servers' metrics at {@code scrape}; a worker silent for {@code stall}
     * (before its first report, {@code stall} + {@code warmup}) fails.
     */
    ControllerRun(int workers, Duration interval, List<URI> scrape, Duration stall, Duration warmup) {
        this(workers, interval, scrape, stall, warmup, null, WorkerLoss.CONTINUE);
    }

    /** Writing its report into {@code reportDir}. */
    ControllerRun(int workers, Path reportDir) {
        this(workers, Duration.ofSeconds(1), List.of(), Duration.ofSeconds(60), Duration.ZERO, reportDir,
                WorkerLoss.CONTINUE);
    }

    /** With {@code onWorkerLoss} as the policy for a worker lost after the start (the others: continue). */
    ControllerRun(int workers, WorkerLoss onWorkerLoss) {
        this(workers, Duration.ofSeconds(1), List.of(), Duration.ofSeconds(60), Duration.ZERO, null, onWorkerLoss);
    }

    private ControllerRun(int workers, Duration interval, List<URI> scrape, Duration stall, Duration warmup,
            Path reportDir, WorkerLoss onWorkerLoss) {
        Scenario echo = Scenario.builder(Command.ECHO).target(Targets.parse("127.0.0.1:1")).build();
        List<Scenario> shards = Collections.nCopies(workers, echo);
        controller = new Controller(new ControllerSettings("echo", "127.0.0.1:1", shards, "127.0.0.1", 0, "127.0.0.1",
                interval, Duration.ofSeconds(20), stall, warmup, scrape, reportDir,
                new PrintStream(live, true, StandardCharsets.UTF_8), Map.of(), SECRET, merged -> { }, onWorkerLoss));
        summary = CompletableFuture.supplyAsync(() -> {
            try {
                return controller.run(new NoExecutor(), "test");
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    /** A connection without the run's secret: a process on the network that is not one of the run's workers. */
    FakeWorker connectRogue() throws Exception {
        FakeWorker w = new FakeWorker(rogues.connect(controller.address()).get(CALL_TIMEOUT.toSeconds(), TimeUnit.SECONDS),
                CALL_TIMEOUT);
        connected.add(w);
        return w;
    }

    /** A new connection to the coordination endpoint, which has said nothing yet. */
    FakeWorker connect() throws Exception {
        InetSocketAddress address = controller.address();
        FakeWorker w = new FakeWorker(clients.connect(address).get(CALL_TIMEOUT.toSeconds(), TimeUnit.SECONDS), CALL_TIMEOUT);
        connected.add(w);
        return w;
    }

    /** A worker that said hello as {@code index} and is ready: the run starts once every worker is. */
    FakeWorker ready(int index) throws Exception {
        FakeWorker w = connect();
        w.hello(index);
        w.ready(index);
        return w;
    }

    /** The run's summary, once every worker is done or failed. */
    DistributedSummary summary() throws Exception {
        return summary.get(30, TimeUnit.SECONDS);
    }

    /** What the controller printed as it ran. */
    String live() {
        return live.toString(StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        connected.forEach(FakeWorker::close);
        controller.stop();
        controller.close();
        clients.close();
        rogues.close();
    }

    /** Launches nothing: the test's connections are the workers. */
    private static final class NoExecutor implements WorkerExecutor {
        @Override
        public void launch(InetSocketAddress controller, String runSecret) {
        }

        @Override
        public Map<Integer, String> poll() {
            return Map.of();
        }

        @Override
        public void close() {
        }
    }
}
