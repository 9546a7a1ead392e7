package io.ricochet.loadgen.engine;

import io.ricochet.loadgen.workload.FrameConversation;
import io.ricochet.loadgen.workload.FrameWorkload;
import io.ricochet.transport.IoTransport;
import io.ricochet.transport.client.FrameClient;
import java.util.List;
import java.util.Map;

/**
 * What the framed loads share: the framework's client for the spec (transport, TLS or Noise, QUIC, its event loops),
 * the workload whose conversations make the requests and check the replies, and the wall clock their send times read.
 */
abstract class FrameLoad extends LoadBase {
    final LoadSpec spec;
    final FrameWorkload workload;
    final FrameClient frames;
    final IoTransport io;

    FrameLoad(LoadSpec spec, FrameWorkload workload, FrameClient frames) {
        super(frames.eventLoops().group(), spec.connections(), spec.timeout(), spec.maxRequests(),
                spec.rateOfOneConnection(), spec.rateStages() ? spec.stages() : null);
        this.spec = spec;
        this.workload = workload;
        this.frames = frames;
        this.io = frames.eventLoops().transport();
    }

    @Override
    public long stagesOriginNanos() {
        return spec.stages() != null ? pace.originNanos() : 0;
    }

    FrameLoad(LoadSpec spec, FrameWorkload workload) {
        this(spec, workload, spec.newClient());
    }

    public LoadSpec spec() {
        return spec;
    }

    public IoTransport io() {
        return io;
    }

    /**
     * The workload's conversation for a new connection, on its loop; null (counted as an error, with its cause kept)
     * if the workload threw.
     */
    final FrameConversation open(ConnectionContext connection) {
        try {
            FrameConversation conversation = workload.open(connection.at(-1, 0));
            if (conversation == null) {
                throw new NullPointerException("open returned no conversation");
            }
            return conversation;
        } catch (RuntimeException e) {
            openFailures.increment();
            workloadThrew(e, "open", "connection " + connection.connection());
            return null;
        }
    }

    /** A new context for connection {@code id} of this load, numbered run-wide. */
    final ConnectionContext context(long id) {
        return new ConnectionContext(spec.firstConnection() + id, spec.worker(), spec.seed(), wallOffsetMicros);
    }

    /**
     * Why requests failed when the server closed their connection, naming them (request 0 of connection 3: a login
     * refused, say), after {@code goodReplies} verified replies (on
     * that connection; a connection per request counts the run's). Bodies over the usual limit name it: a frame the
     * server would not take, a protocol error it closes on (docs/protocol.md). Else a server that had answered right
     * most likely stopped (a graceful shutdown closes with the requests then in flight unanswered), and one that never
     * had may not speak the protocol at all.
     */
    final String serverClosed(long connection, long firstUnanswered, int unanswered, int largestBody,
            long goodReplies) {
        String closed = (unanswered == 1 ? "request " + firstUnanswered + " of connection " + connection
                + " was not answered" : "requests " + firstUnanswered + " to " + (firstUnanswered + unanswered - 1)
                + " of connection " + connection + " were not answered") + ": the server closed the connection";
        int defaultMax = spec.lengthField().defaultMaxFrame();
        if (largestBody > defaultMax) {
            return closed + "; bodies of up to " + largestBody + " bytes were sent, and a server with the default "
                    + "--max-frame for a " + spec.lengthField().width() + "-byte length field (" + defaultMax
                    + ") closes on a longer frame";
        }
        if (goodReplies > 0) {
            return closed + ", after " + goodReplies + (goodReplies == 1 ? " good reply" : " good replies")
                    + " (did it shut down?)";
        }
        return closed + " (a server closes on a frame it will not take: is --target "
                + (workload instanceof ServerKind kind ? kind.serverKind() : "a port of this protocol")
                + ", with --length-field " + spec.lengthField().width() + "?)";
    }

    /**
     * No frame answered at all: a server whose length field is wider than this run's waits for the rest of a frame that
     * never comes, and the first timeout is all anyone sees.
     */
    @Override
    final String noReplyYet() {
        int width = spec.lengthField().width();
        return " (no reply yet on any connection: is the server's length field " + width + " bytes, as --length-field "
                + width + (width == 2 ? ", the default, says? a service with a 4-byte one needs --length-field 4)"
                        : " says?)");
    }

    /**
     * Connection {@code connection} (run-wide) ended owing its requests {@code firstUnanswered} on, {@code unanswered}
     * of them, after {@code goodReplies}: the server closed it.
     */
    final void serverClosedOn(long connection, long firstUnanswered, int unanswered, int largestBody,
            long goodReplies) {
        stats.unansweredEnds.increment();
        failed(() -> serverClosed(connection, firstUnanswered, unanswered, largestBody, goodReplies));
    }

    @Override
    public boolean timesConnects() {
        return true;
    }

    @Override
    public boolean timesHandshakes() {
        return spec.handshakes();
    }

    @Override
    public void describe(Map<String, Object> config) {
        config.put("latency_kind", latencyKind());
        config.put("io", io.kind().label());
        config.put("send_tick_us", tickNanos() / 1000);
    }

    /** The TLS session the first handshake agreed, with the client's provider; null without TLS. */
    final String tlsSession() {
        String negotiated = stats.negotiated.get();
        return negotiated == null ? null : negotiated + " (" + spec.tls().provider() + " client)";
    }

    @Override
    public LoadFacts facts() {
        return new LoadFacts(io.label(), latencyKind(), tlsSession(), null, firstError(), stats.firstBad.get(),
                spec.maxRequests() > 0 ? requestSpanS() : 0, Map.of(), List.of());
    }

    @Override
    public void close() {
        stopSending();
        finishDrivers();
        frames.close();
    }
}
