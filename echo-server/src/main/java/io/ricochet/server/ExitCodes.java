package io.ricochet.server;

/** Process exit statuses of the echo server. */
final class ExitCodes {
    static final int OK = 0;
    static final int FAILURE = 1;
    static final int USAGE = 2;

    private ExitCodes() {
    }
}
