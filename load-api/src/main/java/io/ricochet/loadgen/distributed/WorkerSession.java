package io.ricochet.loadgen.distributed;

import com.google.protobuf.ByteString;
import io.ricochet.config.Durations;
import io.ricochet.loadgen.distributed.proto.Assignment;
import io.ricochet.loadgen.distributed.proto.Done;
import io.ricochet.loadgen.distributed.proto.Hello;
import io.ricochet.loadgen.distributed.proto.IntervalReport;
import io.ricochet.loadgen.distributed.proto.Ready;
import io.ricochet.loadgen.distributed.proto.WorkerSummary;
import io.ricochet.loadgen.report.ReportWriter;
import io.ricochet.loadgen.report.RunMetadata;
import io.ricochet.loadgen.engine.Interval;
import io.ricochet.loadgen.engine.RunHooks;
import io.ricochet.rpc.RpcClient;
import io.ricochet.rpc.RpcClientConfig;
import io.ricochet.rpc.RpcClients;
import io.ricochet.rpc.RpcConfig;
import io.ricochet.rpc.RpcException;
import io.ricochet.rpc.RpcHandler;
import io.ricochet.rpc.RpcStatus;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A worker's side of the coordination channel: it says hello and receives its shard, waits at the
 * start barrier, streams every interval, and reports its summary at the end. If the controller goes
 * away the run stops: a worker never loads a target on its own.
 */
public final class WorkerSession implements RunHooks, AutoCloseable {
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);

    private final InetSocketAddress controller;
    private final int index;
    private final PrintStream log;
    private final RpcClients group;
    private final CountDownLatch started = new CountDownLatch(1);
    private volatile boolean stop;
    private volatile String summaryJson = "";
    private volatile WorkerSummary summary;
    private RpcClient client;
    private Assignment assignment;

    /** @param runSecret the run's secret ({@link RunSecret}), which the controller requires */
    public WorkerSession(InetSocketAddress controller, int index, PrintStream log, String runSecret) {
        this.group = RpcClients.create(RpcClientConfig.builder()
                .rpc(RpcConfig.builder().maxPayload(Coordination.MAX_PAYLOAD).build()).bearerToken(runSecret).build(), null);
        this.controller = controller;
        this.index = index;
        this.log = log;
    }

    /** Connects (retrying until {@code timeout}: pods may start before the controller listens) and fetches the shard. */
    public Assignment connect(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        RpcException last = null;
        while (client == null && System.nanoTime() < deadline) {
            try {
                client = await(group.connect(controller));
            } catch (RpcException e) {
                last = e;
                Thread.sleep(500);
            }
        }
        if (client == null) {
            throw new IllegalStateException("worker " + index + ": cannot reach the controller at " + controller
                    + " within " + Durations.format(timeout) + (last == null ? "" : ": " + last.detail()));
        }
        client.handle(Coordination.START, RpcHandler.sync(payload -> {
            started.countDown();
            return ByteString.EMPTY;
        }));
        client.handle(Coordination.STOP, RpcHandler.sync(payload -> {
            stop = true;
            started.countDown();
            return ByteString.EMPTY;
        }));
        RunMetadata.Host host = RunMetadata.thisHost();
        RunMetadata.Jvm jvm = RunMetadata.thisJvm();
        Hello hello = Hello.newBuilder().setIndex(index).setHost(clip(host.name(), CoordinationService.MAX_HOST_CHARS))
                .setPid(ProcessHandle.current().pid()).setCores(host.cores()).setMemoryBytes(Math.max(0, host.memoryBytes()))
                .setJvmVendor(clip(String.valueOf(jvm.vendor()), 256)).setJvmVersion(clip(jvm.version(), 256))
                .addAllJvmFlags(flagsWithinBounds(jvm)).build();
        // An assignment that is not readable fails the call with INTERNAL, as any other refusal does.
        assignment = await(client.call(Coordination.HELLO_METHOD, hello, CALL_TIMEOUT));
        return assignment;
    }

    @Override
    public boolean awaitStart() {
        try {
            await(client.call(Coordination.READY_METHOD, Ready.newBuilder().setIndex(index).build(), CALL_TIMEOUT));
            log.println("worker " + index + ": ready, waiting at the start barrier");
            boolean go = started.await(assignment.getStartTimeoutMillis() + 10_000, TimeUnit.MILLISECONDS);
            return go && !stop;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Override
    public void interval(Interval d) {
        IntervalReport report = IntervalReport.newBuilder().setIndex(index).setInterval(d.index())
                .setElapsedS(d.elapsedS()).setStartMillis(d.startMillis()).setEndMillis(d.endMillis())
                .setOpenConnections(d.openConnections()).setSent(d.delta().sent()).setOk(d.delta().ok())
                .setBad(d.delta().bad()).setErrors(d.delta().errors()).setLate(d.delta().late())
                .setUnexpected(d.delta().unexpected())
                .setOkBytes(d.delta().okBytes()).setConnects(d.delta().connects())
                .setConnectFailures(d.delta().connectFailures()).setLatency(HistogramCodec.encode(d.latency()))
                .setService(HistogramCodec.encode(d.service())).setConnect(HistogramCodec.encode(d.connect())).build();
        if (d.handshake() != null) {
            report = report.toBuilder().setHandshake(HistogramCodec.encode(d.handshake()))
                    .setHandshakeFailures(d.handshakeFailures()).build();
        }
        client.call(Coordination.REPORT_METHOD, report, CALL_TIMEOUT).whenComplete((v, e) -> {
            if (e != null) {
                log.println("worker " + index + ": interval " + d.index() + " not delivered: " + e.getMessage());
            }
        });
    }

    @Override
    public boolean stopRequested() {
        return stop || !client.isConnected();
    }

    @Override
    public void finished(Object summary) {
        this.summary = WorkerSummaries.of(summary);
        try {
            summaryJson = ReportWriter.JSON.writeValueAsString(summary);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            log.println("worker " + index + ": summary not serializable: " + e.getMessage());
        }
    }

    /** Tells the controller this worker is over, and how it ended; waits for the controller to take it. */
    public void done(int exitCode, String error) {
        if (client == null || !client.isConnected()) {
            return;
        }
        Done.Builder done = Done.newBuilder().setIndex(index).setExitCode(exitCode).setSummaryJson(summaryJson)
                .setError(error == null ? "" : error);
        if (summary != null) {
            done.setSummary(summary);
        }
        try {
            await(client.call(Coordination.DONE_METHOD, done.build(), CALL_TIMEOUT));
        } catch (RpcException e) {
            log.println("worker " + index + ": final report not delivered: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static <T> T await(CompletableFuture<T> future) throws InterruptedException {
        try {
            return future.get(CALL_TIMEOUT.toMillis() + 5_000, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RpcException r ? r : new RpcException(RpcStatus.INTERNAL, e.getCause().toString());
        } catch (TimeoutException e) {
            throw new RpcException(RpcStatus.DEADLINE_EXCEEDED, "no answer from the controller");
        }
    }

    /** At most {@code max} characters of {@code s}. */
    private static String clip(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max);
    }

    /** The JVM's flags, as many as the controller takes: the first ones, within its count and its characters. */
    static List<String> flagsWithinBounds(RunMetadata.Jvm jvm) {
        int chars = 512;  // the vendor and version, clipped to 256 each
        List<String> kept = new ArrayList<>();
        for (String flag : jvm.flags()) {
            if (kept.size() == CoordinationService.MAX_JVM_FLAGS || chars + flag.length() > CoordinationService.MAX_JVM_CHARS) {
                break;
            }
            chars += flag.length();
            kept.add(flag);
        }
        return kept;
    }

    @Override
    public void close() {
        if (client != null) {
            client.close();
        }
        group.close();
    }
}
