package io.ricochet.transport.server;

import io.netty.handler.codec.quic.QuicSslContext;
import io.ricochet.config.Checks;
import io.ricochet.config.LengthField;
import io.ricochet.config.ServerConfig;
import io.ricochet.internal.OptionalLibrary;
import io.ricochet.noise.ServerNoiseConfig;
import io.ricochet.tls.Tls;
import io.ricochet.transport.PipelineCustomizer;
import io.ricochet.transport.Protocol;
import io.ricochet.transport.session.FrameHandler;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * One port of a {@link RicochetServer}: its transport (TCP, UDP or QUIC), its security (TLS or the Noise channel on
 * TCP; QUIC always encrypts), what it serves, and the few settings a port may hold apart from the server's. Immutable:
 * each method returns a new listener. Everything it does not set comes from the server: its {@link ServerConfig}
 * (host, limits, timeouts, framing), its handler, its pipeline customizer and its meter name.
 *
 * <pre>{@code
 * RicochetServer server = RicochetServer.builder()
 *         .handler(new ReverseEchoHandler())
 *         .listen(Listener.tcp(7000))
 *         .listen(Listener.udp(7000))
 *         .listen(Listener.tcp(7443).tls(tls))
 *         .listen(Listener.tcp(7500).noise(noise))
 *         .listen(Listener.quic(7443, quicTls))
 *         .listen(rpc.listener(7100))
 *         .build();
 * }</pre>
 *
 * <p>Each listener's meters are tagged with its {@linkplain #protocol() protocol} ({@code tcp}, {@code tls},
 * {@code noise}, {@code udp}, {@code quic}, or a service's own, such as {@code rpc}) and its {@linkplain #name name},
 * the server's unless set; no two listeners of a server may share both.
 */
public final class Listener {
    /** The socket a listener binds. */
    public enum Kind { TCP, UDP, QUIC }

    private final Kind kind;
    private final int port;
    private final Tls tls;
    private final ServerNoiseConfig noise;
    private final QuicSslContext quicTls;
    private final String protocol;
    private final String name;
    private final ListenerService service;
    private final PipelineCustomizer customizer;
    private final LengthField lengthField;
    private final int maxFrame;
    private final Duration idleTimeout;
    private final Boolean reusePort;

    private Listener(Kind kind, int port, Tls tls, ServerNoiseConfig noise, QuicSslContext quicTls, String protocol,
            String name, ListenerService service, PipelineCustomizer customizer, LengthField lengthField, int maxFrame,
            Duration idleTimeout, Boolean reusePort) {
        this.kind = kind;
        this.port = port;
        this.tls = tls;
        this.noise = noise;
        this.quicTls = quicTls;
        this.protocol = protocol;
        this.name = name;
        this.service = service;
        this.customizer = customizer;
        this.lengthField = lengthField;
        this.maxFrame = maxFrame;
        this.idleTimeout = idleTimeout;
        this.reusePort = reusePort;
    }

    private static Listener of(Kind kind, int port, String protocol) {
        Checks.inRange("port", port, 0, 65_535);
        return new Listener(kind, port, null, null, null, protocol, null, null, null, null, 0, null, null);
    }

    /** A TCP port (0 for an ephemeral one), plaintext until {@link #tls} or {@link #noise}. */
    public static Listener tcp(int port) {
        return of(Kind.TCP, port, Protocol.TCP.tag());
    }

    /** A UDP port (0 for an ephemeral one): one frame per datagram, a session per peer. */
    public static Listener udp(int port) {
        return of(Kind.UDP, port, Protocol.UDP.tag());
    }

    /**
     * A QUIC port (UDP; 0 for an ephemeral one), each bidirectional stream framed as a TCP connection. Build
     * {@code tls} with {@link io.ricochet.tls.ServerTlsConfig#buildQuic}{@code (Protocol.QUIC_ALPN)}; clients must
     * offer the same ALPN.
     */
    public static Listener quic(int port, QuicSslContext tls) {
        OptionalLibrary.QUIC.require();
        Listener plain = of(Kind.QUIC, port, Protocol.QUIC.tag());
        return plain.with(plain.tls, plain.noise, Checks.notNull("tls", tls), plain.protocol);
    }

    /**
     * This TCP port over TLS, tagged {@code tls}: build it from a {@link io.ricochet.tls.ServerTlsConfig}, or wrap
     * a server {@code SslContext} of one's own with {@link Tls#of}. A failed handshake closes the connection and
     * counts as {@code ricochet.protocol.errors{kind=tls}}.
     */
    public Listener tls(Tls tls) {
        requireTcp("tls");
        if (noise != null) {
            throw new IllegalArgumentException("tls on a Noise listener (expected: one or the other)");
        }
        return with(Checks.notNull("tls", tls).serverSide(), null, null, renamed(Protocol.TCP.tag(), "tls"));
    }

    /**
     * This TCP port over the Noise channel (docs/protocol.md), tagged {@code noise}: clients pin the key pair's public
     * key. Handshakes run on threads of the listener's own, within the config's bounds; one past them is shed
     * (closed, counted in {@code ricochet.noise.handshakes.shed}).
     */
    public Listener noise(ServerNoiseConfig noise) {
        OptionalLibrary.NOISE.require();
        requireTcp("noise");
        if (tls != null) {
            throw new IllegalArgumentException("noise on a TLS listener (expected: one or the other)");
        }
        return with(null, Checks.notNull("noise", noise), null, renamed(Protocol.TCP.tag(), "noise"));
    }

    /** Serves {@code handler} here instead of the server's; it must be thread-safe (see {@link FrameHandler}). */
    public Listener handler(FrameHandler handler) {
        Checks.notNull("handler", handler);
        return service(ListenerService.of(() -> handler));
    }

    /** A handler of its own for each session of this listener, instead of the server's handler. */
    public Listener handlerPerSession(Supplier<FrameHandler> factory) {
        return service(ListenerService.of(Checks.notNull("factory", factory)));
    }

    /** Serves what {@code service} makes, started and stopped with the server: how a layer such as RPC is a listener. */
    public Listener service(ListenerService service) {
        return new Listener(kind, port, tls, noise, quicTls, protocol, name, Checks.notNull("service", service),
                customizer, lengthField, maxFrame, idleTimeout, reusePort);
    }

    /** The {@code protocol} tag of this listener's meters, in place of its transport's ({@code rpc} for RPC). */
    public Listener protocol(String tag) {
        return with(tls, noise, quicTls, Checks.notNull("tag", tag));
    }

    /** The {@code name} tag of this listener's meters, in place of the server's. */
    public Listener name(String name) {
        return new Listener(kind, port, tls, noise, quicTls, protocol, Checks.notNull("name", name), service,
                customizer, lengthField, maxFrame, idleTimeout, reusePort);
    }

    /** Adds handlers to this listener's pipelines instead of the server's customizer. */
    public Listener pipeline(PipelineCustomizer customizer) {
        return new Listener(kind, port, tls, noise, quicTls, protocol, name, service,
                Checks.notNull("customizer", customizer), lengthField, maxFrame, idleTimeout, reusePort);
    }

    /** This listener's frames: {@code lengthField} wide, bodies up to {@code maxFrame}, instead of the server's. */
    public Listener framing(LengthField lengthField, int maxFrame) {
        Checks.notNull("lengthField", lengthField);
        Checks.inRange("maxFrame", maxFrame, 1, lengthField.largestMaxFrame());
        return new Listener(kind, port, tls, noise, quicTls, protocol, name, service, customizer, lengthField, maxFrame,
                idleTimeout, reusePort);
    }

    /** Closes a connection or session of this listener after this long with no complete frame, not the server's. */
    public Listener idleTimeout(Duration idleTimeout) {
        Checks.positive("idleTimeout", idleTimeout);
        return new Listener(kind, port, tls, noise, quicTls, protocol, name, service, customizer, lengthField, maxFrame,
                idleTimeout, reusePort);
    }

    /** Binds this port with or without {@code SO_REUSEPORT}, whatever the server's config says. */
    public Listener reusePort(boolean reusePort) {
        return new Listener(kind, port, tls, noise, quicTls, protocol, name, service, customizer, lengthField, maxFrame,
                idleTimeout, reusePort);
    }

    public Kind kind() {
        return kind;
    }

    public int port() {
        return port;
    }

    /** The {@code protocol} tag of its meters. */
    public String protocol() {
        return protocol;
    }

    /** The {@code name} tag of its meters, or null for the server's. */
    public String name() {
        return name;
    }

    /** TLS on this TCP port, or null. */
    public Tls tls() {
        return tls;
    }

    /** The Noise channel on this TCP port, or null. */
    public ServerNoiseConfig noise() {
        return noise;
    }

    /** The QUIC port's TLS 1.3; null for TCP and UDP. */
    public QuicSslContext quicTls() {
        return quicTls;
    }

    /** What this listener serves, or null for the server's handler. */
    public ListenerService service() {
        return service;
    }

    /** Its pipeline customizer, or null for the server's. */
    public PipelineCustomizer customizer() {
        return customizer;
    }

    /**
     * The server's config as this listener sees it: its port the only one enabled (TCP or UDP or QUIC), with the
     * framing, idle timeout and port sharing it sets.
     */
    public ServerConfig resolve(ServerConfig server) {
        ServerConfig.Builder b = server.toBuilder()
                .tcpPort(kind == Kind.TCP ? port : ServerConfig.DISABLED)
                .udpPort(kind == Kind.UDP ? port : ServerConfig.DISABLED)
                .quicPort(kind == Kind.QUIC ? port : ServerConfig.DISABLED);
        if (lengthField != null) {
            b.lengthField(lengthField).maxFrame(maxFrame);
        }
        if (idleTimeout != null) {
            b.idleTimeout(idleTimeout);
        }
        if (reusePort != null) {
            b.reusePort(reusePort);
        }
        return b.build();
    }

    /** How the logs and errors name it: {@code tls 7443}. */
    @Override
    public String toString() {
        return protocol + " " + port;
    }

    private Listener with(Tls tls, ServerNoiseConfig noise, QuicSslContext quicTls, String protocol) {
        return new Listener(kind, port, tls, noise, quicTls, protocol, name, service, customizer, lengthField, maxFrame,
                idleTimeout, reusePort);
    }

    /** The security's own tag, unless a tag of the caller's was set already. */
    private String renamed(String transportTag, String securityTag) {
        return Objects.equals(protocol, transportTag) ? securityTag : protocol;
    }

    private void requireTcp(String what) {
        if (kind != Kind.TCP) {
            throw new IllegalArgumentException(what + " on a " + kind.name().toLowerCase(java.util.Locale.ROOT)
                    + " listener (expected: a tcp one)");
        }
    }
}
