package io.ricochet.rpc;

/**
 * A call that did not end {@link RpcStatus#OK}. Futures of failed calls complete with it; a handler
 * throws it (or completes exceptionally with it) to answer with that status. Carries no stack trace:
 * it describes a remote outcome, and timeouts under load would otherwise pay for one each.
 */
public final class RpcException extends RuntimeException {
    private final RpcStatus status;

    public RpcException(RpcStatus status, String message) {
        super(status + ": " + message, null, false, false);
        if (status == RpcStatus.OK) {
            throw new IllegalArgumentException("status: OK (expected: a failure)");
        }
        this.status = status;
    }

    public RpcStatus status() {
        return status;
    }

    /** The message without the status prefix, as sent on the wire. */
    public String detail() {
        return getMessage().substring(status.name().length() + 2);
    }
}
