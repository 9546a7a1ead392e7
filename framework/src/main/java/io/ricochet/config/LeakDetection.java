package io.ricochet.config;

/**
 * Netty's leak detector for a measured process: the echo server, the load generator and the baseline servers.
 *
 * <pre>{@code
 * public static void main(String[] args) {
 *     LeakDetection.offUnlessAsked(); // before anything allocates a Netty buffer
 *     ...
 * }
 * }</pre>
 */
public final class LeakDetection {
    /** The system property Netty reads its level from, once, when its leak detector first loads. */
    public static final String LEVEL_PROPERTY = "io.netty.leakDetection.level";
    /** The older name, which Netty still reads when the new one is not set. */
    private static final String OLD_LEVEL_PROPERTY = "io.netty.leakDetectionLevel";

    private LeakDetection() {
    }

    /**
     * For a program's {@code main}, before Netty allocates a buffer: turns the leak detector off unless the command
     * line set its level (under either name). At Netty's default level a sampled buffer records stack traces when it
     * is allocated and released, and every pipeline hop touches its message: about 5% of an RPC server's I/O thread.
     * The sampled buffers are also a second class at a hot loop's buffer calls, which C2 then compiles with a type
     * check and a virtual call: the in-place echo was 1.7x slower at 1 KiB frames. Tests run the detector at
     * paranoid, where leaks are found.
     */
    public static void offUnlessAsked() {
        if (System.getProperty(LEVEL_PROPERTY) == null && System.getProperty(OLD_LEVEL_PROPERTY) == null) {
            System.setProperty(LEVEL_PROPERTY, "disabled");
        }
    }
}
