package io.ricochet.commandline;

/**
 * The exit statuses the shipped programs share: 0 for a clean run, 1 for a failure (a port that cannot be bound, a
 * run with bad replies), 2 for a usage error. The load generator adds 99 for a broken threshold.
 *
 * <pre>{@code
 * return ok ? ExitCodes.OK : ExitCodes.FAILURE;
 * }</pre>
 */
public final class ExitCodes {
    public static final int OK = 0;
    public static final int FAILURE = 1;
    public static final int USAGE = 2;

    private ExitCodes() {
    }
}
