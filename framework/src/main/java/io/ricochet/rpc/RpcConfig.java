package io.ricochet.rpc;

import static io.ricochet.internal.Checks.inRange;
import static io.ricochet.internal.Checks.positive;

import io.ricochet.config.LengthField;
import java.time.Duration;

/**
 * The RPC layer's limits, the same at both ends of a connection.
 *
 * @param maxPayload         largest payload sent or accepted; bigger → {@code RESOURCE_EXHAUSTED}
 * @param maxInFlight        calls one connection may have waiting at once in each direction; more →
 *                           {@code RESOURCE_EXHAUSTED}
 * @param maxRoutesPerClient agent URIs one connection may own
 * @param maxMethodTags      distinct method tag values on the meters; later methods share the tag {@code other}
 * @param defaultTimeout     deadline of a call made without one
 */
public record RpcConfig(int maxPayload, int maxInFlight, int maxRoutesPerClient, int maxMethodTags,
        Duration defaultTimeout) {

    /** Characters in a method name or URI. */
    public static final int MAX_METHOD_LENGTH = 1024;
    /** Envelope bytes besides the payload: ids, kind, status, timeout, a method and a message at their caps. */
    public static final int ENVELOPE_OVERHEAD = 4 * MAX_METHOD_LENGTH * 3 / 2 + 64;
    /** Largest payload that fits a frame with the 4-byte length field. */
    public static final int LARGEST_PAYLOAD = LengthField.FOUR.largestMaxFrame() - ENVELOPE_OVERHEAD;

    public static final RpcConfig DEFAULTS = builder().build();

    public RpcConfig {
        inRange("maxPayload", maxPayload, 1, LARGEST_PAYLOAD);
        positive("maxInFlight", maxInFlight);
        positive("maxRoutesPerClient", maxRoutesPerClient);
        positive("maxMethodTags", maxMethodTags);
        positive("defaultTimeout", defaultTimeout);
    }

    /** The largest frame an envelope within these limits needs. */
    public int maxFrame() {
        return maxPayload + ENVELOPE_OVERHEAD;
    }

    public static Builder builder() {
        return new Builder();
    }

    public static final class Builder {
        private int maxPayload = 4 * 1024 * 1024;
        private int maxInFlight = 4096;
        private int maxRoutesPerClient = 10_000;
        private int maxMethodTags = 100;
        private Duration defaultTimeout = Duration.ofSeconds(10);

        private Builder() {
        }

        public Builder maxPayload(int maxPayload) {
            this.maxPayload = maxPayload;
            return this;
        }

        public Builder maxInFlight(int maxInFlight) {
            this.maxInFlight = maxInFlight;
            return this;
        }

        public Builder maxRoutesPerClient(int maxRoutesPerClient) {
            this.maxRoutesPerClient = maxRoutesPerClient;
            return this;
        }

        public Builder maxMethodTags(int maxMethodTags) {
            this.maxMethodTags = maxMethodTags;
            return this;
        }

        public Builder defaultTimeout(Duration defaultTimeout) {
            this.defaultTimeout = defaultTimeout;
            return this;
        }

        public RpcConfig build() {
            return new RpcConfig(maxPayload, maxInFlight, maxRoutesPerClient, maxMethodTags, defaultTimeout);
        }
    }
}
