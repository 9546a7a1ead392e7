package io.ricochet.rpc;

/** The methods every RPC end answers itself; here so the halves of a connection need not name the connection. */
final class BuiltIn {
    /** A keepalive's method. */
    static final String PING = "rpc.ping";
    /** The method a client authenticates with, once, before its other calls. */
    static final String AUTH = "rpc.auth";
    /** The id of every ping: calls count from 1, so a ping's answer is never taken for a call's. */
    static final long PING_ID = 0;

    private BuiltIn() {
    }
}
