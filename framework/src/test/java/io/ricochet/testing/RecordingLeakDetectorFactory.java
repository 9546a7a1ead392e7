package io.ricochet.testing;

import io.netty.util.ResourceLeakDetector;
import io.netty.util.ResourceLeakDetectorFactory;

/** Makes every Netty leak detector report to {@link LeakRecorder} instead of only logging. */
final class RecordingLeakDetectorFactory extends ResourceLeakDetectorFactory {

    @Override
    public <T> ResourceLeakDetector<T> newResourceLeakDetector(Class<T> resource, int samplingInterval, long maxActive) {
        return new ResourceLeakDetector<>(resource, samplingInterval) {
            @Override
            protected boolean needReport() {
                return true;
            }

            @Override
            protected void reportTracedLeak(String resourceType, String records) {
                LeakRecorder.record("LEAK: " + resourceType + records);
            }

            @Override
            protected void reportUntracedLeak(String resourceType) {
                LeakRecorder.record("LEAK: " + resourceType + " (untraced)");
            }
        };
    }
}
