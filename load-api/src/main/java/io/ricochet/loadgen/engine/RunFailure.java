package io.ricochet.loadgen.engine;

/**
 * A failure the generator diagnosed itself (a reply that never came, a server that closed with requests unanswered),
 * kept as a run's first error. It reads as its message alone, and carries no stack trace: where it was noticed says
 * nothing to the user.
 */
final class RunFailure extends Exception {
    RunFailure(String message) {
        super(message, null, false, false);
    }

    @Override
    public String toString() {
        return getMessage();
    }
}
