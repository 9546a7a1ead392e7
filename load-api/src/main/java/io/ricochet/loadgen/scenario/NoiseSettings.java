package io.ricochet.loadgen.scenario;

/**
 * The client side of the Noise channel in a {@link Scenario} ({@code noise:} in a scenario file): on when either is
 * given. The AES-GCM key length is the scenario's {@code key_bits}.
 *
 * <pre>{@code
 * NoiseSettings noise = new NoiseSettings("BASE64PUBLICKEY", "stream");
 * }</pre>
 *
 * @param serverKey the server's static public key, base64, as the echo server prints it; null to pin an embedded
 *                  server's own
 * @param mode      {@code package} (one message per frame) or {@code stream} (one per flushed batch); null for package
 */
public record NoiseSettings(String serverKey, String mode) {
    /** No Noise channel. */
    public static final NoiseSettings OFF = new NoiseSettings(null, null);

    public boolean enabled() {
        return serverKey != null || mode != null;
    }
}
