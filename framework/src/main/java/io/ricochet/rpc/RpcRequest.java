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
    private boolean cancelled;
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
     * handler stops work nobody waits for. May be called from any thread.
     */
    public void onCancel(Runnable action) {
        if (!caller.eventLoop().inEventLoop()) {
            caller.eventLoop().execute(() -> onCancel(action));
            return;
        }
        if (cancelled) {
            action.run();
            return;
        }
        if (onCancel == null) {
            onCancel = new ArrayList<>(1);
            // The deadline is watched only for handlers that listen: a timer per call costs, and most do not.
            if (deadlineNanos != 0) {
                deadlineTimer = caller.eventLoop().schedule(this::cancel, remainingNanos(), TimeUnit.NANOSECONDS);
            }
        }
        onCancel.add(action);
    }

    /** The caller stopped waiting; on the caller's event loop. */
    void cancel() {
        if (cancelled) {
            return;
        }
        cancelled = true;
        if (onCancel != null) {
            for (Runnable action : onCancel) {
                action.run();
            }
            onCancel = null;
        }
    }

    /** The call was answered: its deadline no longer matters. */
    void answered() {
        if (deadlineTimer != null) {
            deadlineTimer.cancel(false);
            deadlineTimer = null;
        }
        onCancel = null;
    }
}
