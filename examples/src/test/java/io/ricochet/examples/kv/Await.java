package io.ricochet.examples.kv;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Waits for a future with a limit, so a test that would hang fails instead. */
final class Await {
    static final long SECONDS = 20;

    private Await() {
    }

    static <T> T await(CompletableFuture<T> future) {
        try {
            return future.get(SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (InterruptedException | TimeoutException e) {
            throw new AssertionError("nothing within " + SECONDS + " s", e);
        }
    }

    /** The exception {@code future} failed with; fails the test if it succeeded. */
    static Throwable failure(CompletableFuture<?> future) {
        try {
            future.get(SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (InterruptedException | TimeoutException e) {
            throw new AssertionError("nothing within " + SECONDS + " s", e);
        }
        throw new AssertionError("succeeded; expected a failure");
    }
}
