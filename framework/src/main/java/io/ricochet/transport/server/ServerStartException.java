package io.ricochet.transport.server;

/** A server could not start: a port is taken, an address is wrong, or a forced transport cannot load. */
public final class ServerStartException extends RuntimeException {
    public ServerStartException(String message, Throwable cause) {
        super(message, cause);
    }
}
