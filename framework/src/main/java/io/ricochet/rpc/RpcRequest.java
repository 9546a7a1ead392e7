package io.ricochet.rpc;

import com.google.protobuf.ByteString;

/**
 * One request as a handler sees it.
 *
 * @param method        the method or URI called
 * @param payload       the caller's bytes
 * @param deadlineNanos {@link System#nanoTime()} by which the caller stops waiting; 0 = none
 * @param caller        the connection it came on
 */
public record RpcRequest(String method, ByteString payload, long deadlineNanos, RpcConnection caller) {

    /** Time left before the caller's deadline in nanoseconds, at least 1; {@code Long.MAX_VALUE} without one. */
    public long remainingNanos() {
        return deadlineNanos == 0 ? Long.MAX_VALUE : Math.max(1, deadlineNanos - System.nanoTime());
    }
}
