package io.ricochet.handler;

/**
 * Whether a connection's handler still owes replies, which {@link IdleFrameTimeoutHandler} asks before it closes an
 * idle connection: one serving a long call is not idle. An interface the session implements itself, where a lambda
 * made per connection cost each held connection 16 B.
 *
 * <pre>{@code
 * new IdleFrameTimeoutHandler(Duration.ofSeconds(60), stats, () -> inFlight > 0);
 * }</pre>
 */
@FunctionalInterface
public interface RepliesOwed {
    /** Asked on the connection's event loop. */
    boolean owesReplies();
}
