package io.ricochet.loadgen.rpc;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/** Waits for a future and rethrows its own failure, not a wrapper, so the CLI can print one clear line. */
final class Joins {
    private Joins() {
    }

    static <T> T join(CompletableFuture<T> future) {
        try {
            return future.join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : e;
        }
    }
}
