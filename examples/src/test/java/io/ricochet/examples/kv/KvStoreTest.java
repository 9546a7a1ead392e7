package io.ricochet.examples.kv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class KvStoreTest {
    private static final ByteString V = ByteString.copyFromUtf8("v");

    @Test
    void aPutIsReadBackAndReplaced() {
        KvStore store = new KvStore(10);
        assertNull(store.get("k"));
        assertTrue(store.put("k", V));
        assertEquals(V, store.get("k"));
        assertTrue(store.put("k", ByteString.EMPTY));
        assertEquals(ByteString.EMPTY, store.get("k"));
        assertEquals(1, store.size());
    }

    @Test
    void aNewKeyPastTheBoundIsRefusedAndAStoredOneReplaced() {
        KvStore store = new KvStore(2);
        assertTrue(store.put("a", V));
        assertTrue(store.put("b", V));
        assertFalse(store.put("c", V));
        assertNull(store.get("c"));
        assertTrue(store.put("a", ByteString.copyFromUtf8("w")));
        assertEquals(2, store.size());
    }

    @Test
    @Timeout(30)
    void concurrentPutsOfNewKeysNeverPassTheBound() throws Exception {
        int maxKeys = 1_000;
        KvStore store = new KvStore(maxKeys);
        AtomicInteger stored = new AtomicInteger();
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try {
            List<CompletableFuture<Void>> done = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int thread = t;
                done.add(CompletableFuture.runAsync(() -> {
                    awaitUninterruptibly(go);
                    for (int i = 0; i < maxKeys; i++) {
                        // Each thread's own keys, and a key all threads share, so replacing races adding too.
                        if (store.put("t" + thread + "-" + i, V)) {
                            stored.incrementAndGet();
                        }
                        store.put("shared", V);
                    }
                }, threads));
            }
            go.countDown();
            Await.await(CompletableFuture.allOf(done.toArray(CompletableFuture[]::new)));
        } finally {
            threads.shutdownNow();
        }
        assertEquals(maxKeys, store.size());
        assertTrue(stored.get() == maxKeys || stored.get() == maxKeys - 1, "stored " + stored.get());
        assertEquals(maxKeys, stored.get() + (store.get("shared") != null ? 1 : 0));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "a b", "a/b", "ключ", "k\n"})
    void aKeyOutsideTheRuleIsRefusedNamingIt(String key) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new KvStore().put(key, V));
        assertEquals("key: " + Quoted.of(key) + " (expected: 1..64 bytes of [A-Za-z0-9._:-])", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new KvStore().get(key));
    }

    @Test
    void aLongKeyIsDescribedByItsLength() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new KvStore().put("k".repeat(1_000), V));
        assertEquals("key: 1000 characters (expected: 1..64 bytes of [A-Za-z0-9._:-])", e.getMessage());
    }

    @Test
    void aValueOverItsBoundAndABoundBelowOneAreRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new KvStore().put("k", ByteString.copyFrom(new byte[1025])));
        assertEquals("value: 1025 bytes (expected: 0..1024)", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new KvStore(0));
        assertEquals("maxKeys: 0 (expected: > 0)", e.getMessage());
    }

    private static void awaitUninterruptibly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
