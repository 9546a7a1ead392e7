package io.ricochet.rpc;

import com.google.protobuf.ByteString;
import io.netty.util.concurrent.ScheduledFuture;
import io.ricochet.transport.session.FrameSession;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * One connection's authentication, on a server that requires credentials ({@link AuthGate}): its place among the
 * connections waiting to authenticate, its deadline, its one guess, and the log line for the requests it sends
 * before it authenticates. Event-loop confined, as its {@link RequestServer} is.
 */
final class ConnectionAuth {
    private final AuthGate gate;
    private final FrameSession session;
    private final RpcMetrics metrics;
    private boolean authenticated;
    private boolean closed;
    /** Closes the connection if it has not authenticated by then: pings alone kept an unknown peer's slot forever. */
    private ScheduledFuture<?> deadline;
    /** At most one line per connection refused, however many requests it sends unauthenticated. */
    private boolean refusalLogged;

    /** On the event loop, as the connection opens: the deadline starts here. */
    ConnectionAuth(AuthGate gate, FrameSession session, RpcMetrics metrics) {
        this.gate = gate;
        this.session = session;
        this.metrics = metrics;
        deadline = session.eventLoop().schedule(this::timedOut, gate.timeoutNanos(), TimeUnit.NANOSECONDS);
        // At once when on this loop: the displaced one's place under the connection cap is free for the next accept.
        gate.waiting(this, session.remoteAddress(), () -> {
            if (session.eventLoop().inEventLoop()) {
                displaced();
            } else {
                try {
                    session.eventLoop().execute(this::displaced);
                } catch (RejectedExecutionException e) {
                    // Its loop has shut down, and the connection with it.
                }
            }
        });
    }

    boolean authenticated() {
        return authenticated;
    }

    /**
     * The built-in {@code rpc.auth}: true if {@code credential} is accepted (or the connection authenticated already);
     * false if refused, which the caller answers and closes the connection for, so a peer gets one guess.
     */
    boolean accept(ByteString credential) {
        if (authenticated || gate.accepts(credential)) {
            if (!authenticated) {
                gate.waited(this);
                authenticated = true;
                cancelDeadline();
            }
            return true;
        }
        gate.logRefusal(session.remoteAddress(), "wrong credentials; closing");
        return false;
    }

    /** A request for {@code method} before authenticating: logged once per connection, and told to the authenticator. */
    void refusedBeforeAuthenticating(String method) {
        if (!refusalLogged) {
            refusalLogged = true;
            gate.logRefusal(session.remoteAddress(), "'" + method + "' before authenticating");
        }
        gate.refused(method, session.remoteAddress());
    }

    /** The connection is gone: its place among those waiting, and its deadline, go with it. */
    void closed() {
        closed = true;
        if (!authenticated) {
            gate.waited(this);
        }
        cancelDeadline();
    }

    private void cancelDeadline() {
        if (deadline != null) {
            deadline.cancel(false);
            deadline = null;
        }
    }

    /** Newer connections needed this one's place among those waiting to authenticate (see {@link AuthGate}). */
    private void displaced() {
        if (authenticated || closed) {
            return;
        }
        drop("not authenticated, and newer connections waited", RpcStatus.RESOURCE_EXHAUSTED);
        // At once: its place under the connection cap is wanted now, and it is owed nothing.
        session.shed();
    }

    /** Counted as an {@code rpc.auth} that ran out of time, so a scrape tells it from a wrong credential. */
    private void timedOut() {
        deadline = null;
        if (authenticated || closed) {
            return;
        }
        drop("not authenticated within " + gate.timeoutText(), RpcStatus.DEADLINE_EXCEEDED);
        session.close();
    }

    private void drop(String why, RpcStatus status) {
        gate.logRefusal(session.remoteAddress(), why + "; closing");
        gate.dropped(session.remoteAddress(), why);
        metrics.started();
        metrics.finished(BuiltIn.AUTH, status, 0);
    }
}
