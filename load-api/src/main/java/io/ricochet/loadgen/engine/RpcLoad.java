package io.ricochet.loadgen.engine;

import io.ricochet.loadgen.workload.RpcConversation;
import io.ricochet.loadgen.workload.RpcWorkload;
import io.ricochet.rpc.RpcClient;
import io.ricochet.rpc.RpcClientConfig;
import io.ricochet.rpc.RpcClients;
import io.ricochet.rpc.RpcConfig;
import io.ricochet.rpc.RpcException;
import io.ricochet.transport.EventLoops;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.function.IntToLongFunction;

/**
 * An RPC load: {@code clients} lanes, each on its own connection (or pair, for exchanges that need two), calling for
 * its even share of the requests with {@code inFlight} waiting, in closed loop or at a rate. The clients connect before
 * the start signal, and an uncounted warmup runs first on the same connections, so measurement starts at the steady
 * state the warmup reached (new connections would run their setup paths again, and the JIT would recompile what they
 * touch).
 */
public final class RpcLoad extends LoadBase {
    /**
     * Rounds the warmup is run in, as JMH's warmup iterations are, so the code of a phase change (a phase started by a
     * task, calls issued outside a read, a last answer that issues none) has run, and been profiled, before measuring:
     * with one warmup phase the JIT met it first at the measured phase's start, threw away the compiled hot path there
     * and spent the next second recompiling it.
     */
    static final int WARMUP_ROUNDS = 5;

    private final RpcSpec spec;
    private final RpcWorkload workload;
    private final RpcExchange exchange;
    private final EventLoops loops;
    private final RpcClients group;
    private final StepTimes steps;
    private final List<CallLane> lanes = new ArrayList<>();

    /** A load of {@code workload}'s calls, one connection per lane. */
    public RpcLoad(RpcSpec spec, RpcWorkload workload) {
        this(spec, workload, null);
    }

    /** A load of {@code exchange}'s exchanges, {@link RpcExchange#connectionsPerLane} connections per lane. */
    public RpcLoad(RpcSpec spec, RpcExchange exchange) {
        this(spec, null, exchange);
    }

    private RpcLoad(RpcSpec spec, RpcWorkload workload, RpcExchange exchange) {
        this(spec, workload, exchange, EventLoops.create(spec.io(), spec.ioThreads(), "loadgen-rpc"));
    }

    private RpcLoad(RpcSpec spec, RpcWorkload workload, RpcExchange exchange, EventLoops loops) {
        super(loops.group(), spec.clients(), spec.timeout(), 0, spec.rate() > 0 ? spec.rate() / spec.clients() : 0,
                null);
        this.spec = spec;
        this.workload = workload;
        this.exchange = exchange;
        this.loops = loops;
        this.steps = new StepTimes(exchange == null ? List.of() : exchange.steps());
        RpcConfig rpc = RpcConfig.builder().maxInFlight(spec.inFlight()).defaultTimeout(spec.timeout()).build();
        RpcClientConfig.Builder config = RpcClientConfig.builder().rpc(rpc);
        if (spec.tls() != null) {
            config.tls(spec.tls());
        } else if (spec.noise() != null) {
            config.noise(spec.noise());
        }
        this.group = RpcClients.create(config.build(), null, loops);
    }

    public RpcSpec spec() {
        return spec;
    }

    /**
     * Connects every client (failing with the first {@code RpcException}, {@code UNAVAILABLE} if one cannot connect),
     * opens each lane's conversation on its loop, then runs the warmup in {@value #WARMUP_ROUNDS} rounds.
     */
    @Override
    public void prepare() {
        startDrivers();
        int perLane = exchange == null ? 1 : exchange.connectionsPerLane();
        List<CompletableFuture<RpcClient>> connects = new ArrayList<>();
        for (int i = 0; i < spec.clients() * perLane; i++) {
            connects.add(group.connect(spec.target()));
        }
        List<RpcClient> clients = new ArrayList<>();
        for (CompletableFuture<RpcClient> connect : connects) {
            clients.add(join(connect));
        }
        for (int i = 0; i < spec.clients(); i++) {
            List<RpcClient> mine = clients.subList(i * perLane, (i + 1) * perLane);
            RpcClient first = mine.get(0);
            LoopDriver driver = driverOf(first.connection().eventLoop());
            long id = spec.firstConnection() + i;
            ConnectionContext context = new ConnectionContext(id, spec.worker(), spec.seed(), wallOffsetMicros);
            CompletableFuture<CallLane> opened = new CompletableFuture<>();
            driver.loop().execute(() -> {
                try {
                    RpcConversation conversation = workload == null ? null : workload.open(context.at(-1, 0));
                    RpcExchange.Session session = exchange == null ? null
                            : exchange.open(context.at(-1, 0), List.copyOf(mine), steps);
                    CallLane lane = new CallLane(this, driver, id, first, context, conversation, session);
                    driver.add(lane);
                    opened.complete(lane);
                } catch (RuntimeException e) {
                    opened.completeExceptionally(e);
                }
            });
            try {
                lanes.add(opened.join());
            } catch (CompletionException e) {
                throw new IllegalStateException("the workload could not open connection " + id + ": "
                        + e.getCause(), e.getCause());
            }
        }
        stats.openConnections.set(spec.clients());
        if (spec.warmup() > 0) {
            for (int round = 0; round < WARMUP_ROUNDS; round++) {
                int r = round;
                awaitWarmup(runPhase(i -> spec.warmupShareOf(i, r, WARMUP_ROUNDS)));
            }
            stats.resetAfterWarmup();
            steps.reset();
        }
    }

    @Override
    public void start() {
        phase(spec::shareOf, done);
    }

    /**
     * Waits for a warmup round: every call ends by its deadline, so each round ends, but against a server that answers
     * nothing the warmup gives up as soon as the measured run would, rather than after every call's deadline.
     */
    private void awaitWarmup(CompletableFuture<Void> round) {
        while (true) {
            try {
                round.get(100, TimeUnit.MILLISECONDS);
                return;
            } catch (java.util.concurrent.TimeoutException e) {
                String futile = futile();
                if (futile != null) {
                    throw new IllegalStateException("the warmup gave up: " + futile + " ("
                            + (firstError() == null ? "no error kept" : firstError()) + ")");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted during the warmup", e);
            } catch (java.util.concurrent.ExecutionException e) {
                return;
            }
        }
    }

    /** Runs one uncounted phase; the future completes when all of it has ended. */
    private CompletableFuture<Void> runPhase(IntToLongFunction shareOf) {
        CompletableFuture<Void> ended = new CompletableFuture<>();
        phase(shareOf, ended);
        return ended;
    }

    /** Gives each lane its share of a phase on its loop; {@code ended} completes when all of it has ended. */
    private void phase(IntToLongFunction shareOf, CompletableFuture<Void> ended) {
        pace.phase(lanes.size(), () -> idle().whenComplete((v, e) -> ended.complete(null)));
        for (int i = 0; i < lanes.size(); i++) {
            CallLane lane = lanes.get(i);
            long share = shareOf.applyAsLong(i);
            lane.driver.loop().execute(() -> lane.phase(share));
        }
    }

    /** A call that got no answer: its reason kept as the first error. */
    void failedCall(ConnectionContext request, Throwable error) {
        failed(() -> request + ": " + (error instanceof RpcException r ? r.getMessage() : String.valueOf(error)));
    }

    private static RpcClient join(CompletableFuture<RpcClient> connect) {
        try {
            return connect.join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : e;
        }
    }

    @Override
    public boolean timesConnects() {
        return false;
    }

    @Override
    public void describe(Map<String, Object> config) {
        config.put("latency_kind", latencyKind());
        config.put("io", group.io().label());
    }

    @Override
    public Progress progress() {
        return new Progress.Counted(() -> stats.counts().completed(), spec.total());
    }

    @Override
    public LoadFacts facts() {
        List<LoadFacts.LaneFigures> figures = new ArrayList<>();
        for (CallLane lane : lanes) {
            CompletableFuture<LoadFacts.LaneFigures> f = new CompletableFuture<>();
            lane.driver.loop().execute(() -> f.complete(new LoadFacts.LaneFigures((int) (lane.id - spec.firstConnection()),
                    lane.sent, lane.ok, lane.bad, lane.errors,
                    lane.lastAnswerNanos > lane.firstSendNanos ? (lane.lastAnswerNanos - lane.firstSendNanos) / 1e9 : 0,
                    lane.latency.copy())));
            figures.add(f.orTimeout(5, TimeUnit.SECONDS).join());
        }
        Map<String, org.HdrHistogram.Histogram> stepHistograms = exchange == null || exchange.steps().isEmpty()
                ? Map.of() : new LinkedHashMap<>(steps.take());
        return new LoadFacts(group.io().label(), latencyKind(), null, null, firstError(), stats.firstBad.get(), 0,
                stepHistograms, exchange == null ? figures : List.of());
    }

    @Override
    public void close() {
        stopSending();
        finishDrivers();
        group.close();
        loops.close();
    }
}
