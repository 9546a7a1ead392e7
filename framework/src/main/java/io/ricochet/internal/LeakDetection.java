package io.ricochet.internal;

/** Netty's leak detector for a measured process: the echo server, the load generator and the baseline servers. */
public final class LeakDetection {
    /** The system property Netty reads its level from, once, when its leak detector first loads. */
    public static final String LEVEL_PROPERTY = "io.netty.leakDetection.level";

    private LeakDetection() {
    }

    /**
     * For a program's {@code main}, before Netty allocates a buffer: turns the leak detector off unless
     * {@value #LEVEL_PROPERTY} was set on the command line. At Netty's default level a sampled buffer's
     * allocation and release record stack traces, and every hop through a pipeline touches its message: 3% of an
     * RPC server's calls. Tests run at paranoid, where leaks are found.
     */
    public static void offUnlessAsked() {
        if (System.getProperty(LEVEL_PROPERTY) == null) {
            System.setProperty(LEVEL_PROPERTY, "disabled");
        }
    }
}
