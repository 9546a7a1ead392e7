package io.ricochet.testing;

import java.util.ArrayList;
import java.util.List;

/** Leak reports of the whole test JVM. Netty's leak detectors are process-wide, so this must be too. */
public final class LeakRecorder {
    private static final List<String> LEAKS = new ArrayList<>();

    private LeakRecorder() {
    }

    static synchronized void record(String report) {
        LEAKS.add(report);
    }

    /** Returns and forgets the reports gathered so far. */
    public static synchronized List<String> drain() {
        List<String> copy = List.copyOf(LEAKS);
        LEAKS.clear();
        return copy;
    }
}
