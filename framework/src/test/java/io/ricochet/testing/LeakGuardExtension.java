package io.ricochet.testing;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.util.List;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Runs after every test class (registered for all of them through the service loader): collects garbage,
 * allocates so the detectors poll their queues, and fails the class if any buffer leaked.
 */
public final class LeakGuardExtension implements AfterAllCallback {
    private static final int ROUNDS = 3;

    @Override
    public void afterAll(ExtensionContext context) throws InterruptedException {
        for (int i = 0; i < ROUNDS; i++) {
            System.gc();
            Thread.sleep(20);
            // A tracked allocation makes each detector drain its reference queue and report.
            for (int j = 0; j < 64; j++) {
                ByteBuf pooled = PooledByteBufAllocator.DEFAULT.directBuffer(1);
                pooled.release();
                ByteBuf heap = UnpooledByteBufAllocator.DEFAULT.heapBuffer(1);
                heap.release();
            }
        }
        List<String> leaks = LeakRecorder.drain();
        if (!leaks.isEmpty()) {
            throw new AssertionError(leaks.size() + " buffer leak(s) detected by or before "
                    + context.getDisplayName() + ":\n" + String.join("\n", leaks));
        }
    }
}
