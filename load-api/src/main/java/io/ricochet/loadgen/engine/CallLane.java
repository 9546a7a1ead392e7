package io.ricochet.loadgen.engine;

import com.google.protobuf.ByteString;
import io.ricochet.loadgen.stats.RunStats;
import io.ricochet.loadgen.workload.Check;
import io.ricochet.loadgen.workload.RpcCall;
import io.ricochet.loadgen.workload.RpcConversation;
import io.ricochet.loadgen.workload.RpcReply;
import io.ricochet.rpc.RpcClient;
import io.ricochet.rpc.RpcException;
import io.ricochet.rpc.RpcStatus;
import java.util.Objects;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import org.HdrHistogram.Histogram;

/**
 * One RPC lane: its conversation (or session, for exchanges of several calls) makes each request, and this lane calls
 * it, checks the answer and records it, keeping {@code inFlight} requests waiting. Answers may come in any order; each
 * carries its own request's numbers. It also keeps its own figures for the per-client table. Confined to its driver's
 * loop: an answer that comes on another (a client reconnected elsewhere, the second client of a pair) hops there first.
 */
final class CallLane extends Lane {
    private final RpcLoad load;
    private final RunStats stats;
    private final RpcClient client;
    private final ConnectionContext context;
    private final boolean openLoop;
    private final RpcConversation conversation;
    private final RpcExchange.Session session;
    private long nextSeq;
    /**
     * Which of {@link #failOutstanding}'s cuts a request belongs to: the calls it failed may still end later (at
     * their deadline, or as their client closes), and they must not be counted twice.
     */
    private int generation;
    /** This phase's figures, for the per-client table. */
    final Histogram latency = RunStats.newHistogram();
    long sent;
    long ok;
    long bad;
    long errors;
    long firstSendNanos;
    long lastAnswerNanos;

    CallLane(RpcLoad load, LoopDriver driver, long id, RpcClient client, ConnectionContext context,
            RpcConversation conversation, RpcExchange.Session session) {
        super(driver, load.pace, id, load.spec().inFlight());
        this.load = load;
        this.stats = load.stats;
        this.client = client;
        this.context = context;
        this.openLoop = load.openLoop();
        this.conversation = conversation;
        this.session = session;
    }

    /** Starts a phase of {@code requests} on the loop; nothing of an earlier phase is in flight or counted. */
    void phase(long requests) {
        sent = 0;
        ok = 0;
        bad = 0;
        errors = 0;
        firstSendNanos = 0;
        lastAnswerNanos = 0;
        latency.reset();
        quota(requests);
        begin();
    }

    @Override
    void send(long intendedNanos, long now) {
        long seq = nextSeq;
        ConnectionContext request = context.at(seq, now);
        if (firstSendNanos == 0) {
            firstSendNanos = now;
        }
        stats.sent.increment();
        CompletionStage<Check> exchange = null;
        RpcCall call = null;
        try {
            if (session != null) {
                exchange = Objects.requireNonNull(session.exchange(request), "exchange returned no stage");
            } else {
                call = Objects.requireNonNull(conversation.request(request), "request returned no call");
            }
        } catch (RuntimeException e) {
            failedToRequest(e, request);
            return;
        }
        nextSeq++;
        sent++;
        started();
        int cut = generation;
        if (exchange != null) {
            exchange.whenComplete((check, error) -> answered(cut, seq, intendedNanos, now, check,
                    error == null ? null : unwrap(error), null));
        } else {
            client.call(call.method(), call.payload(), load.spec().timeout())
                    .whenComplete((payload, error) -> answered(cut, seq, intendedNanos, now, null,
                            error == null ? null : unwrap(error), payload));
        }
    }

    /** The workload failed to make a request: an error, and this lane tries again shortly rather than at once. */
    private void failedToRequest(RuntimeException e, ConnectionContext request) {
        load.workloadThrew(e, "request", request);
        errors++;
        requestFailed();
    }

    private static Throwable unwrap(Throwable error) {
        return error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    }

    /**
     * One request has ended: an exchange's check, or a call's answer or failure. A call that got no answer (its
     * deadline passed, its connection was lost) is an error; any other status is the conversation's to check.
     */
    private void answered(int cut, long seq, long intended, long sent, Check exchanged, Throwable error,
            ByteString payload) {
        if (!driver.loop().inEventLoop()) {
            driver.loop().execute(() -> answered(cut, seq, intended, sent, exchanged, error, payload));
            return;
        }
        if (cut != generation) {
            return;
        }
        long now = System.nanoTime();
        lastAnswerNanos = now;
        ConnectionContext request = context.at(seq, sent);
        Check check = exchanged;
        if (session == null) {
            if (error instanceof RpcException e && e.status() != RpcStatus.DEADLINE_EXCEEDED
                    && e.status() != RpcStatus.UNAVAILABLE && e.status() != RpcStatus.CANCELLED) {
                check = checked(request, new RpcReply(e.status(), ByteString.EMPTY, e.detail()));
            } else if (error == null) {
                check = checked(request, new RpcReply(RpcStatus.OK, payload, ""));
            }
        }
        if (check == null) {
            errors++;
            if (error != null) {
                stats.errors.increment();
                if (error instanceof RpcException e && e.status() == RpcStatus.DEADLINE_EXCEEDED) {
                    load.timedOut();
                }
                load.failedCall(request, error);
            }
        } else if (check.isOk()) {
            long service = now - sent;
            stats.recordReply(driver.index(), intended, sent, now, openLoop);
            latency.recordValue(Math.max(RunStats.LOWEST_US, Math.min(RunStats.HIGHEST_US, service / 1000)));
            stats.ok.increment();
            ok++;
        } else {
            stats.bad(request, check.reason());
            bad++;
        }
        ended(1);
        fill(now);
    }

    /** The conversation's check, or null (an error, counted) if it threw. */
    private Check checked(ConnectionContext request, RpcReply reply) {
        try {
            return nonNull(conversation.check(request, reply));
        } catch (RuntimeException e) {
            load.workloadThrew(e, "check", request);
            return null;
        }
    }

    /** A check that returned nothing is the workload's failure, as if it threw. */
    static io.ricochet.loadgen.workload.Check nonNull(io.ricochet.loadgen.workload.Check check) {
        if (check == null) {
            throw new NullPointerException("check returned null (expected: Check.ok() or Check.bad(reason))");
        }
        return check;
    }

    /**
     * Counts every call in flight as an error, once, and ignores their answers from now on: a run that stops without
     * draining (it was futile, or the drain ran out) reports every call it sent as ended.
     */
    @Override
    void failOutstanding() {
        if (inFlight > 0) {
            errors += inFlight;
            stats.errors.add(inFlight);
            ended(inFlight);
        }
        generation++;
    }

}
