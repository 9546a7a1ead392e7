package io.ricochet.loadgen.cli;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.ricochet.config.LengthField;
import io.ricochet.config.ServerConfig;
import io.ricochet.config.TransportKind;
import io.ricochet.echo.BodyReverser;
import io.ricochet.transport.server.RicochetServer;
import io.ricochet.transport.session.FrameHandler;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/** Echo servers that misbehave on purpose, built on the framework, to check the generator's honesty. */
final class FaultyServers {
    private FaultyServers() {
    }

    static RicochetServer start(FrameHandler handler) {
        return start(handler, LengthField.TWO);
    }

    /** A server of {@code handler} whose frames have a {@code lengthField}. */
    static RicochetServer start(FrameHandler handler, LengthField lengthField) {
        return RicochetServer.builder().config(ServerConfig.builder().host("127.0.0.1").ephemeralPorts().ioThreads(1)
                .transport(TransportKind.NIO).lengthField(lengthField).build()).handler(handler)
                .meterRegistry(new SimpleMeterRegistry()).build().startAndAwait();
    }

    /** Flips one byte of every 100th reply. */
    static FrameHandler corruptEveryHundredth() {
        AtomicLong count = new AtomicLong();
        return (session, body) -> {
            BodyReverser.reverseInPlace(body);
            if (count.incrementAndGet() % 100 == 0) {
                body.setByte(body.readerIndex(), body.getByte(body.readerIndex()) ^ 0x5A);
            }
            session.send(body);
        };
    }

    /** Answers each frame correctly after {@code millis}. */
    static FrameHandler delay(long millis) {
        return (session, body) -> {
            BodyReverser.reverseInPlace(body);
            session.eventLoop().schedule(() -> session.send(body), millis, TimeUnit.MILLISECONDS);
        };
    }

    /** Holds every reply during the first 300 ms of each second and releases them when the stall ends. */
    static FrameHandler stallThreeHundredMsEverySecond() {
        return (session, body) -> {
            BodyReverser.reverseInPlace(body);
            long phaseMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime()) % 1000;
            if (phaseMillis < 300) {
                session.eventLoop().schedule(() -> session.send(body), 300 - phaseMillis, TimeUnit.MILLISECONDS);
            } else {
                session.send(body);
            }
        };
    }

    /**
     * Answers each frame correctly, then sends {@code extra} frames nobody asked for, counting the frames it was sent in
     * {@code received}.
     */
    static FrameHandler answersThenSendsUnasked(int extra, AtomicLong received) {
        return (session, body) -> {
            received.incrementAndGet();
            BodyReverser.reverseInPlace(body);
            session.send(body);
            for (int i = 0; i < extra; i++) {
                ByteBuf unasked = session.allocateBody(8);
                unasked.writeLong(0x756E61736B65640AL);
                session.send(unasked);
            }
        };
    }

    /** Takes every frame and never answers, and owes nothing for it: a stop does not wait for it. */
    static FrameHandler silent() {
        return new FrameHandler() {
            @Override
            public void onFrame(io.ricochet.transport.session.FrameSession session, ByteBuf body) {
                body.release();
            }

            @Override
            public boolean owesReplies(io.ricochet.transport.session.FrameSession session) {
                return false;
            }
        };
    }

    static String target(RicochetServer server) {
        return "127.0.0.1:" + server.tcpAddress().getPort();
    }
}
