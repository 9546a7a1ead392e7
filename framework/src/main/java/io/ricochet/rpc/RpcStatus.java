package io.ricochet.rpc;

import io.ricochet.rpc.proto.StatusCode;

/** How a call ended. The wire numbers are {@link StatusCode}'s. */
public enum RpcStatus {
    OK(StatusCode.OK),
    /** No method or agent route by that name (or it was unregistered). */
    NOT_FOUND(StatusCode.NOT_FOUND),
    /** An agent URI another live client already owns. */
    ALREADY_EXISTS(StatusCode.ALREADY_EXISTS),
    /** The caller's deadline passed before an answer came. */
    DEADLINE_EXCEEDED(StatusCode.DEADLINE_EXCEEDED),
    /** Not connected, or the connection was lost with the call in flight. */
    UNAVAILABLE(StatusCode.UNAVAILABLE),
    INVALID_ARGUMENT(StatusCode.INVALID_ARGUMENT),
    /** A limit: payload size, calls in flight, routes per client. */
    RESOURCE_EXHAUSTED(StatusCode.RESOURCE_EXHAUSTED),
    /** The handler failed; the message says how. */
    INTERNAL(StatusCode.INTERNAL),
    /** The caller cancelled the call. */
    CANCELLED(StatusCode.CANCELLED),
    /** The server requires credentials this connection has not given ({@code rpc.auth}), or gave wrong. */
    UNAUTHENTICATED(StatusCode.UNAUTHENTICATED);

    private static final RpcStatus[] BY_NUMBER = new RpcStatus[values().length];

    static {
        for (RpcStatus s : values()) {
            BY_NUMBER[s.code.getNumber()] = s;
        }
    }

    private final StatusCode code;

    RpcStatus(StatusCode code) {
        this.code = code;
    }

    StatusCode code() {
        return code;
    }

    /** The status of a wire code; a code this version does not know is {@link #INTERNAL}. */
    static RpcStatus of(StatusCode code) {
        int n = code == StatusCode.UNRECOGNIZED ? -1 : code.getNumber();
        return n >= 0 && n < BY_NUMBER.length ? BY_NUMBER[n] : INTERNAL;
    }
}
