package io.ricochet.rpc;

import static io.ricochet.config.Checks.inRange;
import static io.ricochet.config.Checks.notNull;
import static io.ricochet.config.Checks.positive;

import com.google.protobuf.ByteString;
import io.ricochet.config.Durations;
import io.ricochet.config.InvalidValueException;
import io.ricochet.config.TransportKind;
import io.ricochet.internal.OptionalLibrary;
import io.ricochet.noise.ClientNoiseConfig;
import io.ricochet.tls.Tls;
import java.time.Duration;

/**
 * How {@link RpcClients} connect.
 *
 * @param rpc              limits, the same as the server's
 * @param transport        client I/O
 * @param ioThreads        event loops shared by every client of the group; 0 = one per processor
 * @param connectTimeout   one connection attempt
 * @param reconnect        whether a lost connection is re-established, with exponential backoff from
 *                         {@code reconnectInitialDelay} to {@code reconnectMaxDelay}
 * @param keepalive        a connection that has sent nothing, or heard nothing, for this long pings the server,
 *                         and is closed if it then hears nothing at all for as long again; {@link Duration#ZERO}
 *                         turns pings off. A ping resets the server's idle timeout, but may go out up to
 *                         1.5 intervals after the last frame: keep it below half the server's idle timeout
 * @param name             the {@code name} tag of the group's meters, unique per registry
 * @param tls              TLS to the servers, or null for plaintext
 * @param noise            the Noise channel to the servers, or null; not with {@code tls}
 * @param credential       given to each server with {@code rpc.auth} as a connection opens (see
 *                         {@link RpcAuthenticator}), or null for none
 */
public record RpcClientConfig(RpcConfig rpc, TransportKind transport, int ioThreads, Duration connectTimeout,
        boolean reconnect, Duration reconnectInitialDelay, Duration reconnectMaxDelay, Duration keepalive,
        String name, Tls tls, ClientNoiseConfig noise, ByteString credential) {

    public RpcClientConfig {
        notNull("rpc", rpc);
        notNull("transport", transport);
        inRange("ioThreads", ioThreads, 0, 1024);
        positive("connectTimeout", connectTimeout);
        positive("reconnectInitialDelay", reconnectInitialDelay);
        positive("reconnectMaxDelay", reconnectMaxDelay);
        notNull("keepalive", keepalive);
        if (keepalive.isNegative()) {
            throw new InvalidValueException("keepalive", Durations.format(keepalive), ">= 0");
        }
        notNull("name", name);
        if (tls != null && noise != null) {
            throw new IllegalArgumentException("tls and noise (expected: one or the other)");
        }
        if (reconnectMaxDelay.compareTo(reconnectInitialDelay) < 0) {
            throw new InvalidValueException("reconnectMaxDelay", Durations.format(reconnectMaxDelay),
                    ">= reconnectInitialDelay " + Durations.format(reconnectInitialDelay));
        }
    }

    public int resolvedIoThreads() {
        return ioThreads == 0 ? Runtime.getRuntime().availableProcessors() : ioThreads;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The default keepalive: below half of {@link io.ricochet.config.ServerConfig#DEFAULT_IDLE_TIMEOUT}. */
    public static final Duration DEFAULT_KEEPALIVE = Duration.ofSeconds(10);

    public static final class Builder {
        private RpcConfig rpc = RpcConfig.DEFAULTS;
        private TransportKind transport = TransportKind.AUTO;
        private int ioThreads = 1;
        private Duration connectTimeout = Duration.ofSeconds(5);
        private boolean reconnect;
        private Duration reconnectInitialDelay = Duration.ofMillis(100);
        private Duration reconnectMaxDelay = Duration.ofSeconds(10);
        private Duration keepalive = DEFAULT_KEEPALIVE;
        private String name = "rpc-client";
        private Tls tls;
        private ClientNoiseConfig noise;
        private ByteString credential;

        private Builder() {
        }

        public Builder rpc(RpcConfig rpc) {
            this.rpc = rpc;
            return this;
        }

        public Builder transport(TransportKind transport) {
            this.transport = transport;
            return this;
        }

        public Builder ioThreads(int ioThreads) {
            this.ioThreads = ioThreads;
            return this;
        }

        public Builder connectTimeout(Duration connectTimeout) {
            this.connectTimeout = connectTimeout;
            return this;
        }

        /** Re-establish lost connections, waiting {@code initialDelay}, doubling up to {@code maxDelay}. */
        public Builder reconnect(Duration initialDelay, Duration maxDelay) {
            this.reconnect = true;
            this.reconnectInitialDelay = initialDelay;
            this.reconnectMaxDelay = maxDelay;
            return this;
        }

        /**
         * Pings after this long without a frame sent or heard (default 10 s); {@link Duration#ZERO} for none.
         * Below half the server's idle timeout.
         */
        public Builder keepalive(Duration keepalive) {
            this.keepalive = keepalive;
            return this;
        }

        /** The {@code name} tag of the group's meters (default {@code rpc-client}). */
        public Builder name(String name) {
            this.name = name;
            return this;
        }

        /** Connects over TLS (see {@code FrameClient.Builder#tls}). */
        public Builder tls(Tls tls) {
            this.tls = notNull("tls", tls).clientSide();
            return this;
        }

        /** Connects over the Noise channel (see {@code FrameClient.Builder#noise}). */
        public Builder noise(ClientNoiseConfig noise) {
            OptionalLibrary.NOISE.require();
            this.noise = notNull("noise", noise);
            return this;
        }

        /** Authenticates with the bearer token {@code token} (UTF-8) on every connection, reconnects included. */
        public Builder bearerToken(String token) {
            this.credential = ByteString.copyFromUtf8(notNull("token", token));
            return this;
        }

        public RpcClientConfig build() {
            return new RpcClientConfig(rpc, transport, ioThreads, connectTimeout, reconnect, reconnectInitialDelay,
                    reconnectMaxDelay, keepalive, name, tls, noise, credential);
        }
    }
}
