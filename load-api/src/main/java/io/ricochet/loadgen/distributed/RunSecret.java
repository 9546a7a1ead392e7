package io.ricochet.loadgen.distributed;

import java.security.SecureRandom;
import java.util.Base64;

/**
 * The secret of one distributed run: the controller makes it, gives it to the workers it starts in their
 * environment (a Kubernetes Secret for pods), and admits to its coordination port only connections that
 * present it, so a stranger's reports are never merged. Not on any command line, where {@code ps} shows it.
 */
public final class RunSecret {
    /** Where a worker finds it. */
    public static final String ENV = "RICOCHET_RUN_SECRET";

    private RunSecret() {
    }

    /** 256 random bits, URL-safe base64. */
    public static String generate() {
        byte[] bytes = new byte[32];
        new SecureRandom().nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
