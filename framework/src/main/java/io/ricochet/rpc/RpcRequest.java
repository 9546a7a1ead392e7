package io.ricochet.rpc;

import com.google.protobuf.ByteString;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One request as a handler sees it: what was called, with what, until when, by whom, and whether the
 * caller still waits. The cancellation state lives on the caller's connection's event loop.
 */
public final class RpcRequest {
    private final String method;
    private final ByteString payload;
    private final long deadlineNanos;
    private final RpcConnection caller;
    /** Written on the caller's event loop, read by handlers anywhere (an executor polling it). */
    private volatile boolean cancelled;
    // Event-loop confined.
    private boolean answered;
    private List<Runnable> onCancel;
    private ScheduledFuture<?> deadlineTimer;

    RpcRequest(String method, ByteString payload, long deadlineNanos, RpcConnection caller) {
        this.method = method;
        this.payload = payload;
        this.deadlineNanos = deadlineNanos;
        this.caller = caller;
    }

    /** The method or URI called. */
    public String method() {
        return method;
    }

    /** The caller's bytes. */
    public ByteString payload() {
        return payload;
    }

    /** {@link System#nanoTime()} by which the caller stops waiting; 0 = none. */
    public long deadlineNanos() {
        return deadlineNanos;
    }

    /** The connection it came on. */
    public RpcConnection caller() {
        return caller;
    }

    /** Time left before the caller's deadline in nanoseconds, at least 1; {@code Long.MAX_VALUE} without one. */
    public long remainingNanos() {
        return deadlineNanos == 0 ? Long.MAX_VALUE : Math.max(1, deadlineNanos - System.nanoTime());
    }

    /** True once the caller stopped waiting: it cancelled, its deadline passed, or its connection was lost. */
    public boolean isCancelled() {
        return cancelled;
    }

    /**
     * Runs {@code action} on the caller's connection's event loop when the call is cancelled (the caller
     * cancelled it, its deadline passed, or its connection was lost), or at once if it already is: a
     * handler stops work nobody waits for. Once the call is answered, it never runs. May be called from
     * any thread.
     */
    public void onCancel(Runnable action) {
        onCancel(action, true);
    }

    /**
     * As {@link #onCancel(Runnable)}; with {@code watchDeadline} false, the caller's deadline is left to
     * a timer of the listener's own (an agent's hop has one) and only the caller's cancel or loss runs it.
     */
    void onCancel(Runnable action, boolean watchDeadline) {
        if (!caller.eventLoop().inEventLoop()) {
            caller.eventLoop().execute(() -> onCancel(action, watchDeadline));
            return;
        }
        if (cancelled) {
            action.run();
            return;
        }
        if (answered) {
            return;
        }
        if (onCancel == null) {
            onCancel = new ArrayList<>(1);
        }
        // The deadline is watched only for handlers that listen: a timer per call costs, and most do not.
        if (watchDeadline && deadlineTimer == null && deadlineNanos != 0) {
            deadlineTimer = caller.eventLoop().schedule(this::cancel, remainingNanos(), TimeUnit.NANOSECONDS);
        }
        onCancel.add(action);
    }

    /** The caller stopped waiting; on the caller's event loop. Nothing once the call is answered. */
    void cancel() {
        if (cancelled || answered) {
            return;
        }
        cancelled = true;
        if (deadlineTimer != null) {
            deadlineTimer.cancel(false);
            deadlineTimer = null;
        }
        if (onCancel != null) {
            List<Runnable> actions = onCancel;
            onCancel = null;
            for (Runnable action : actions) {
                action.run();
            }
        }
    }

    /** The call was answered: its deadline no longer matters, and it can no longer be cancelled. */
    void answered() {
        answered = true;
        if (deadlineTimer != null) {
            deadlineTimer.cancel(false);
            deadlineTimer = null;
        }
        onCancel = null;
    }
}
