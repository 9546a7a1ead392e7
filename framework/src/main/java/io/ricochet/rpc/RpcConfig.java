package io.ricochet.rpc;

import static io.ricochet.config.Checks.inRange;
import static io.ricochet.config.Checks.positive;

import io.ricochet.config.Durations;
import io.ricochet.config.InvalidValueException;
import io.ricochet.config.LengthField;
import java.time.Duration;

/**
 * The RPC layer's limits, the same at both ends of a connection.
 *
 * @param maxPayload         largest payload sent or accepted; bigger → {@code RESOURCE_EXHAUSTED}
 * @param maxInFlight        calls one connection may have waiting at once in each direction; more →
 *                           {@code RESOURCE_EXHAUSTED}
 * @param maxRoutesPerClient agent URIs one connection may own
 * @param maxRoutes          agent URIs all connections together may own
 * @param maxRelayBytes      bytes of forwarded calls an agent may have queued, not yet written to their route
 *                           owners' sockets, across all owners; a call past it fails with {@code RESOURCE_EXHAUSTED}
 * @param relayWriteTimeout  a route owner whose forwarded call is still not written to its socket after this long
 *                           has stopped reading: the agent closes its connection, which frees what it held
 * @param maxMethodTags      distinct method tag values on the meters; later methods share the tag {@code other}
 * @param defaultTimeout     deadline of a call made without one
 * @param authTimeout        how long a server that requires credentials ({@link RpcService.Builder#authenticator}) lets a
 *                           connection go without authenticating, from its accept (over TLS, from its handshake's
 *                           end; the handshake has its own timeout), before it closes it: pings alone
 *                           would otherwise hold a stranger's connection, and its slot, for good
 * @param maxUnauthenticated connections such a server lets wait to authenticate at once; one more displaces the one
 *                           that has waited longest, so strangers who connect and wait cannot crowd out a client that
 *                           authenticates as it connects
 * @param maxUnauthenticatedPerAddress of those, from one source address (an IPv6 /64 counts as one); one more
 *                           displaces that address's longest waiting, so one address cannot displace the others'
 */
public record RpcConfig(int maxPayload, int maxInFlight, int maxRoutesPerClient, int maxRoutes, long maxRelayBytes,
        Duration relayWriteTimeout, int maxMethodTags, Duration defaultTimeout, Duration authTimeout,
        int maxUnauthenticated, int maxUnauthenticatedPerAddress) {

    /** Characters in a method name or URI. */
    public static final int MAX_METHOD_LENGTH = 1024;
    /** Longest deadline honoured; a longer {@code timeout_micros} (up to 2^64 - 1 on the wire) means this. */
    public static final Duration MAX_TIMEOUT = Duration.ofDays(1);
    /** Envelope bytes besides the payload: ids, kind, status, timeout, a method and a message at their caps. */
    public static final int ENVELOPE_OVERHEAD = 4 * MAX_METHOD_LENGTH * 3 / 2 + 64;
    /** Largest payload that fits a frame with the 4-byte length field. */
    public static final int LARGEST_PAYLOAD = LengthField.FOUR.largestMaxFrame() - ENVELOPE_OVERHEAD;

    public static final RpcConfig DEFAULTS = builder().build();

    public RpcConfig {
        inRange("maxPayload", maxPayload, 1, LARGEST_PAYLOAD);
        positive("maxInFlight", maxInFlight);
        positive("maxRoutesPerClient", maxRoutesPerClient);
        positive("maxRoutes", maxRoutes);
        inRange("maxRelayBytes", maxRelayBytes, 1, Long.MAX_VALUE);
        positive("relayWriteTimeout", relayWriteTimeout);
        positive("maxMethodTags", maxMethodTags);
        atMostMaxTimeout("defaultTimeout", defaultTimeout);
        atMostMaxTimeout("authTimeout", authTimeout);
        positive("maxUnauthenticated", maxUnauthenticated);
        inRange("maxUnauthenticatedPerAddress", maxUnauthenticatedPerAddress, 1, maxUnauthenticated);
    }

    private static void atMostMaxTimeout(String field, Duration value) {
        positive(field, value);
        if (value.compareTo(MAX_TIMEOUT) > 0) {
            throw new InvalidValueException(field, Durations.format(value), "<= " + Durations.format(MAX_TIMEOUT));
        }
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
        private int maxRoutes = 100_000;
        private long maxRelayBytes = 64L * 1024 * 1024;
        private Duration relayWriteTimeout = Duration.ofSeconds(10);
        private int maxMethodTags = 100;
        private Duration defaultTimeout = Duration.ofSeconds(10);
        /** As long as a TLS or Noise handshake may take: a client authenticates right after it connects. */
        private Duration authTimeout = Duration.ofSeconds(10);
        private int maxUnauthenticated = 1024;
        /** 0 until set: then as many as {@link #maxUnauthenticated}. */
        private int maxUnauthenticatedPerAddress;

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

        public Builder maxRoutes(int maxRoutes) {
            this.maxRoutes = maxRoutes;
            return this;
        }

        public Builder maxRelayBytes(long maxRelayBytes) {
            this.maxRelayBytes = maxRelayBytes;
            return this;
        }

        public Builder relayWriteTimeout(Duration relayWriteTimeout) {
            this.relayWriteTimeout = relayWriteTimeout;
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

        /** See {@link RpcConfig#authTimeout}; 10 s by default, at most {@link RpcConfig#MAX_TIMEOUT}. */
        public Builder authTimeout(Duration authTimeout) {
            this.authTimeout = authTimeout;
            return this;
        }

        /** See {@link RpcConfig#maxUnauthenticated}; 1,024 by default. */
        public Builder maxUnauthenticated(int maxUnauthenticated) {
            this.maxUnauthenticated = maxUnauthenticated;
            return this;
        }

        /**
         * See {@link RpcConfig#maxUnauthenticatedPerAddress}; by default as many as {@link #maxUnauthenticated}: a load
         * generator on one host opens hundreds of connections at once, each waiting out its TLS or Noise handshake.
         */
        public Builder maxUnauthenticatedPerAddress(int maxUnauthenticatedPerAddress) {
            this.maxUnauthenticatedPerAddress = maxUnauthenticatedPerAddress;
            return this;
        }

        public RpcConfig build() {
            return new RpcConfig(maxPayload, maxInFlight, maxRoutesPerClient, maxRoutes, maxRelayBytes, relayWriteTimeout,
                    maxMethodTags, defaultTimeout, authTimeout, maxUnauthenticated,
                    maxUnauthenticatedPerAddress == 0 ? maxUnauthenticated : maxUnauthenticatedPerAddress);
        }
    }
}
