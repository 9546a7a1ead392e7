package io.ricochet.loadgen.cli;

/** 0: clean run. 1: bad replies, errors past --max-error-rate, or a failure. 2: usage error. 99: a threshold broke. */
final class ExitCodes {
    static final int OK = 0;
    static final int FAILED = 1;
    static final int USAGE = 2;

    private ExitCodes() {
    }
}
