package io.ricochet.loadgen.distributed;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.Empty;
import com.google.protobuf.MessageLite;
import io.ricochet.config.ServerConfig;
import io.ricochet.config.TransportKind;
import io.ricochet.loadgen.distributed.proto.Assignment;
import io.ricochet.loadgen.distributed.proto.Done;
import io.ricochet.loadgen.distributed.proto.Hello;
import io.ricochet.loadgen.distributed.proto.IntervalReport;
import io.ricochet.loadgen.distributed.proto.Ready;
import io.ricochet.loadgen.distributed.proto.WorkerSummary;
import io.ricochet.loadgen.report.ReportWriter;
import io.ricochet.loadgen.report.RunMetadata;
import io.ricochet.loadgen.scenario.ScenarioMessages;
import io.ricochet.rpc.MethodDescriptor;
import io.ricochet.rpc.RpcConfig;
import io.ricochet.rpc.RpcConnection;
import io.ricochet.rpc.RpcDispatcher;
import io.ricochet.rpc.RpcException;
import io.ricochet.rpc.RpcHandler;
import io.ricochet.rpc.RpcService;
import io.ricochet.rpc.RpcStatus;
import io.ricochet.transport.server.RicochetServer;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;

/**
 * The coordination port the workers call: hello, ready, report and done, over the framework's RPC, open
 * only to connections with the run's secret. Every input is checked before it changes a worker or the
 * merge (one worker per connection, each later call from that connection, bounded names and messages),
 * and every refused call is counted, with its reason, for the run's problems and exit status.
 */
final class CoordinationService implements AutoCloseable {
    /** Longest host name a worker may give (a DNS name's). */
    static final int MAX_HOST_CHARS = 253;
    /** How long a connection may go without giving the run's secret: a worker gives it as it connects. */
    static final Duration AUTH_TIMEOUT = Duration.ofSeconds(5);
    /** Connections without the secret held at once; a newer one displaces the longest waiting. */
    static final int MAX_STRANGERS = 64;
    /** Most cores a worker may say it has. */
    static final int MAX_CORES = 1 << 16;
    /** Most JVM flags a worker may give, and most characters of its JVM's vendor, version and flags together. */
    static final int MAX_JVM_FLAGS = 256;
    static final int MAX_JVM_CHARS = 16 * 1024;

    private final ControllerSettings settings;
    private final WorkerRoster roster;
    private final RunMerger merger;
    private final RefusedInputs refused = new RefusedInputs(Duration.ofSeconds(1));
    private final RicochetServer endpoint;
    /** Each worker's shard as the message it is sent, encoded before anything listens: one over its cap is refused. */
    private final List<io.ricochet.loadgen.scenario.proto.Scenario> shards;

    /** Starts serving on the settings' bind address and port; the workers' state is {@code roster}'s. */
    CoordinationService(ControllerSettings settings, WorkerRoster roster, RunMerger merger) {
        this.shards = settings.shards().stream().map(ScenarioMessages::encode).toList();
        this.settings = settings;
        this.roster = roster;
        this.merger = merger;
        RpcDispatcher methods = new RpcDispatcher();
        methods.register(Coordination.HELLO, counted(Coordination.HELLO_METHOD, this::hello));
        methods.register(Coordination.READY, counted(Coordination.READY_METHOD, this::ready));
        methods.register(Coordination.REPORT, counted(Coordination.REPORT_METHOD, this::report));
        methods.register(Coordination.DONE, counted(Coordination.DONE_METHOD, this::done));
        // Room for every worker and a few more, and no longer idle than a worker may be (at the start barrier, or
        // between reports): each connection may hold a partial report, so strangers must not pile up.
        Duration idle = max(settings.startTimeout(), settings.stallTimeout().plus(settings.warmup())).plusMinutes(1);
        // A worker gives the secret as it connects; a stranger who does not waits at most AUTH_TIMEOUT, and among at
        // most MAX_STRANGERS, the longest waiting displaced by a newer connection: a crowd of them cannot keep a
        // worker out, and the connection cap leaves room for the workers beside a full crowd.
        RpcService coordination = RpcService.builder().rpc(RpcConfig.builder().maxPayload(Coordination.MAX_PAYLOAD)
                        .authTimeout(AUTH_TIMEOUT).maxUnauthenticated(MAX_STRANGERS)
                        .maxUnauthenticatedPerAddress(MAX_STRANGERS).build())
                .dispatcher(methods).authenticator(new RunAuthenticator(settings.runSecret(), refused)).build();
        this.endpoint = RicochetServer.builder().config(ServerConfig.builder().host(settings.bindHost()).ioThreads(1)
                        .transport(TransportKind.AUTO).idleTimeout(idle)
                        .maxConnections(2 * roster.size() + 16 + MAX_STRANGERS).build())
                .listen(coordination.listener(settings.port())).name("coordination").build().startAndAwait();
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    /** The bound address. */
    InetSocketAddress address() {
        return endpoint.tcpAddress();
    }

    /** The calls refused so far. */
    RefusedInputs refused() {
        return refused;
    }

    /**
     * The typed {@code method}, each call it refuses (a payload that is not its message included) counted,
     * with its reason, for the run's problems and exit status.
     */
    private <Req extends MessageLite, Resp extends MessageLite> RpcHandler counted(MethodDescriptor<Req, Resp> method,
            BiFunction<Req, RpcConnection, Resp> action) {
        return request -> {
            try {
                Req message = method.parseRequest(request.payload());
                return CompletableFuture.completedFuture(action.apply(message, request.caller()).toByteString());
            } catch (RpcException e) {
                refused.record(method.name(), e.detail());
                throw e;
            }
        };
    }

    private static RpcException invalid(String message) {
        return new RpcException(RpcStatus.INVALID_ARGUMENT, message);
    }

    private Assignment hello(Hello hello, RpcConnection from) {
        synchronized (roster) {
            WorkerStatus w = worker(hello.getIndex());
            for (WorkerStatus other : roster.all()) {
                // One index per connection: every later call is checked against the connection that said hello.
                if (other.connection == from) {
                    throw invalid("worker " + w.index + ": hello from the connection that already said hello as worker "
                            + other.index + " (expected: one worker per connection)");
                }
            }
            if (w.state != WorkerState.PENDING) {
                throw new RpcException(RpcStatus.ALREADY_EXISTS, "worker " + w.index + " is already " + w.state);
            }
            if (hello.getHost().length() > MAX_HOST_CHARS) {
                throw invalid("worker " + w.index + ": host: " + hello.getHost().length() + " characters (expected: <= "
                        + MAX_HOST_CHARS + ")");
            }
            w.machine = machine(w.index, hello);
            w.state = WorkerState.CONNECTED;
            w.host = hello.getHost() + "/" + hello.getPid();
            w.connection = from;
            return Assignment.newBuilder().setIndex(w.index).setWorkers(roster.size())
                    .setScenario(shards.get(w.index)).setStartTimeoutMillis(settings.startTimeout().toMillis())
                    .build();
        }
    }

    /**
     * Where worker {@code index} runs, from its hello, each field checked: a worker from before these fields says none
     * of them, and its host is its name alone (cores 0, memory -1) and its JVM null.
     */
    private static RunMetadata.Worker machine(int index, Hello hello) {
        if (hello.getCores() < 0 || hello.getCores() > MAX_CORES) {
            throw invalid("worker " + index + ": cores: " + hello.getCores() + " (expected: 0 to " + MAX_CORES + ")");
        }
        if (hello.getMemoryBytes() < 0) {
            throw invalid("worker " + index + ": memory_bytes: " + hello.getMemoryBytes() + " (expected: >= 0)");
        }
        if (hello.getJvmFlagsCount() > MAX_JVM_FLAGS) {
            throw invalid("worker " + index + ": jvm_flags: " + hello.getJvmFlagsCount() + " (expected: <= "
                    + MAX_JVM_FLAGS + ")");
        }
        int chars = hello.getJvmVendor().length() + hello.getJvmVersion().length();
        for (String flag : hello.getJvmFlagsList()) {
            chars += flag.length();
        }
        if (chars > MAX_JVM_CHARS) {
            throw invalid("worker " + index + ": jvm: " + chars + " characters (expected: <= " + MAX_JVM_CHARS + ")");
        }
        RunMetadata.Host host = new RunMetadata.Host(hello.getHost(), hello.getCores(),
                hello.getMemoryBytes() == 0 ? -1 : hello.getMemoryBytes());
        boolean saidJvm = !hello.getJvmVendor().isEmpty() || !hello.getJvmVersion().isEmpty()
                || hello.getJvmFlagsCount() > 0;
        RunMetadata.Jvm jvm = saidJvm ? new RunMetadata.Jvm(hello.getJvmVendor(), hello.getJvmVersion(),
                List.copyOf(hello.getJvmFlagsList())) : null;
        return new RunMetadata.Worker(index, host, jvm);
    }

    private Empty ready(Ready ready, RpcConnection from) {
        synchronized (roster) {
            WorkerStatus w = caller(ready.getIndex(), from, "ready");
            if (w.state == WorkerState.CONNECTED) {
                w.state = WorkerState.READY;
            }
            return Empty.getDefaultInstance();
        }
    }

    private Empty report(IntervalReport r, RpcConnection from) {
        synchronized (roster) {
            WorkerStatus w = caller(r.getIndex(), from, "report");
            if (w.state != WorkerState.RUNNING) {
                throw invalid("worker " + w.index + ": report while " + w.state + " (expected: RUNNING)");
            }
            if (r.getInterval() <= w.lastInterval) {
                throw invalid("worker " + w.index + ": interval: " + r.getInterval() + " (expected: > " + w.lastInterval
                        + ", its last)");
            }
            long now = System.nanoTime();
            try {
                merger.add(r, now, w);
            } catch (IllegalArgumentException e) {
                throw invalid("worker " + w.index + ": " + e.getMessage());
            }
            w.lastInterval = r.getInterval();
            w.lastReportNanos = now;
            w.intervals++;
            w.counts.add(r);
            w.openConnections = r.getOpenConnections();
            return Empty.getDefaultInstance();
        }
    }

    private Empty done(Done done, RpcConnection from) {
        synchronized (roster) {
            WorkerStatus w = caller(done.getIndex(), from, "done");
            if (w.state == WorkerState.DONE) {
                throw invalid("worker " + w.index + ": done again (expected: once)");
            }
            if (done.getExitCode() < 0 || done.getExitCode() > 255) {
                throw invalid("worker " + w.index + ": exit_code: " + done.getExitCode() + " (expected: 0..255)");
            }
            WorkerSummary summary = summary(w, done);
            String wrong = summary == null ? null : WorkerSummaries.problem(summary);
            if (wrong != null) {
                throw invalid("worker " + w.index + ": summary: " + wrong);
            }
            String error = WorkerRoster.clipError(done.getError());
            w.exitCode = done.getExitCode();
            w.summary = summary;
            if (w.summary == null) {
                roster.fail(w, "did not run: " + error);
            } else {
                w.state = WorkerState.DONE;
                if (!error.isEmpty()) {
                    w.reason = error;
                }
            }
            return Empty.getDefaultInstance();
        }
    }

    /** The summary {@code done} carries, typed or (from a worker built before the typed one) as JSON; or null. */
    private static WorkerSummary summary(WorkerStatus w, Done done) {
        if (done.hasSummary()) {
            return done.getSummary();
        }
        if (done.getSummaryJson().isEmpty()) {
            return null;
        }
        JsonNode json;
        try {
            json = ReportWriter.JSON.readTree(done.getSummaryJson());
        } catch (JsonProcessingException e) {
            throw invalid("worker " + w.index + ": summary_json: " + e.getOriginalMessage());
        }
        if (!json.isObject()) {
            throw invalid("worker " + w.index + ": summary_json: a " + json.getNodeType() + " (expected: an OBJECT)");
        }
        return WorkerSummaries.fromJson(json);
    }

    private WorkerStatus worker(int index) {
        if (index < 0 || index >= roster.size()) {
            throw invalid("worker index " + index + " (expected: 0.." + (roster.size() - 1) + ")");
        }
        return roster.get(index);
    }

    /** Worker {@code index}, if {@code from} is the connection that said hello as it; else the call is refused. */
    private WorkerStatus caller(int index, RpcConnection from, String what) {
        WorkerStatus w = worker(index);
        if (w.connection != from) {
            throw invalid("worker " + index + ": " + what + " from a connection that did not say hello as worker " + index);
        }
        return w;
    }

    @Override
    public void close() {
        endpoint.close();
    }
}
