package io.ricochet.noise;

import com.southernstorm.noise.protocol.CipherStatePair;
import com.southernstorm.noise.protocol.HandshakeState;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandler;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.Promise;
import io.netty.util.concurrent.PromiseNotifier;
import io.netty.util.concurrent.ScheduledFuture;
import io.ricochet.metrics.CloseReason;
import io.ricochet.metrics.ConnectionStats;
import io.ricochet.metrics.ProtocolErrorKind;
import java.net.SocketAddress;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Noise channel under the framing (docs/protocol.md, "The Noise channel"): first in the pipeline, it runs the
 * NK handshake, then opens each inbound message into plaintext for the frame decoder, and seals outbound frames
 * at flush, one message per frame ({@link NoiseMode#PACKAGE}) or one per flush ({@link NoiseMode#STREAM}). A
 * failed handshake closes the connection at once; a transport message that fails its check ends the input there,
 * as a malformed frame does: the frames before it are served, then the session closes. Either counts
 * {@code kind=noise}. A server's key agreement runs where its {@link NoiseHandshakes} runs it, off the event loop,
 * or is shed there before any work: the connection is then closed, counted in {@code ricochet.noise.handshakes.shed}
 * and as {@code reason=limit}.
 *
 * <p>Longer than 300 lines: the handshake, the opening of inbound messages and the sealing at flush are one
 * connection's state machine (keys, pending plaintext and promises, failure flags) whose steps must see each other.
 */
public final class NoiseHandler extends ByteToMessageDecoder implements ChannelOutboundHandler {
    private static final Logger log = LoggerFactory.getLogger(NoiseHandler.class);

    private final NoiseHandshakes server;
    private final ClientNoiseConfig client;
    private final int lengthWidth;
    private final ConnectionStats stats;

    private Promise<Channel> handshakeDone;
    private HandshakeState handshake;
    private ScheduledFuture<?> handshakeTimeout;
    private NoiseMode sendMode;
    private TrafficCipher sealing;
    private TrafficCipher opening;
    private boolean failed;
    /** A server's first message is with its handshake threads: the client can send nothing valid until answered. */
    private boolean answering;
    private boolean removed;
    /** A transport message failed: the input from there on is discarded while owed replies still go out. */
    private boolean inputFailed;
    /** Plaintext written since the last flush, and the writes' promises. */
    private ByteBuf pending;
    private final List<ChannelPromise> pendingPromises = new ArrayList<>(4);
    /** Where in {@link #pending} each promise's write ends: its promise completes only once that much is sealed. */
    private int[] promiseEnds = new int[4];

    private NoiseHandler(NoiseHandshakes server, ClientNoiseConfig client, int lengthWidth, ConnectionStats stats) {
        this.server = server;
        this.client = client;
        this.lengthWidth = lengthWidth;
        this.stats = stats;
    }

    /**
     * The responder: it proves to hold the key of {@code handshakes}' config and answers in the mode each client
     * chose, its key agreement run (or shed) by {@code handshakes}.
     */
    public static NoiseHandler server(NoiseHandshakes handshakes, int lengthWidth, ConnectionStats stats) {
        return new NoiseHandler(handshakes, null, lengthWidth, stats);
    }

    /** The initiator: it starts the handshake when connected, to the key {@code config} pins. */
    public static NoiseHandler client(ClientNoiseConfig config, int lengthWidth, ConnectionStats stats) {
        return new NoiseHandler(null, config, lengthWidth, stats);
    }

    /** Succeeds once the handshake is done, fails with a {@link NoiseException} otherwise. */
    public Future<Channel> handshakeFuture() {
        return handshakeDone;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) throws Exception {
        handshakeDone = ctx.executor().newPromise();
        if (client != null) {
            handshake = NoiseProtocol.newHandshake(HandshakeState.INITIATOR);
            handshake.getRemotePublicKey().setPublicKey(client.serverPublicKey(), 0);
            handshake.start();
        }
        super.handlerAdded(ctx);
        if (ctx.channel().isActive()) {
            begin(ctx);
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        begin(ctx);
        super.channelActive(ctx);
    }

    private void begin(ChannelHandlerContext ctx) {
        if (handshakeTimeout != null || handshakeDone.isDone()) {
            return;
        }
        long millis = (client != null ? client.handshakeTimeout() : server.config().handshakeTimeout()).toMillis();
        handshakeTimeout = ctx.executor().schedule(() -> fail(ctx, new NoiseException("noise handshake timed out after "
                + millis + " ms")), millis, TimeUnit.MILLISECONDS);
        if (client != null) {
            byte[] payload = {NoiseProtocol.VERSION, (byte) client.mode().code(), (byte) client.keyBytes()};
            sendHandshake(ctx, payload);
        }
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (inputFailed) {
            in.skipBytes(in.readableBytes());
            return;
        }
        while (!failed && in.isReadable()) {
            if (answering) {
                // Not kept: bytes from a peer that cannot have keys yet would only pile up while it waits.
                fail(ctx, new NoiseException("noise handshake failed: the client sent more before the server's answer"));
                return;
            }
            if (in.readableBytes() < NoiseProtocol.LENGTH_BYTES) {
                return;
            }
            int length = in.getUnsignedShort(in.readerIndex());
            boolean handshaking = sealing == null;
            if (handshaking ? length == 0 || length > NoiseProtocol.MAX_HANDSHAKE_MESSAGE
                    : length <= NoiseProtocol.TAG_BYTES) {
                String why = "noise: a " + (handshaking ? "handshake" : "transport") + " message of " + length + " bytes";
                if (handshaking) {
                    fail(ctx, new NoiseException(why));
                } else {
                    failInput(in, why, null);
                }
                return;
            }
            if (in.readableBytes() < NoiseProtocol.LENGTH_BYTES + length) {
                return;
            }
            in.skipBytes(NoiseProtocol.LENGTH_BYTES);
            if (handshaking) {
                byte[] message = new byte[length];
                in.readBytes(message);
                if (client != null) {
                    receiveAnswer(ctx, message);
                } else {
                    receiveFirstMessage(ctx, message);
                }
            } else {
                ByteBuf plain = open(ctx, in, length);
                if (plain == null) {
                    failInput(in, "noise: a message failed its check (altered, replayed or out of order)", null);
                    return;
                }
                out.add(plain);
            }
        }
    }

    private ByteBuf open(ChannelHandlerContext ctx, ByteBuf in, int length) {
        int plainLength = length - NoiseProtocol.TAG_BYTES;
        ByteBuf plain = ctx.alloc().ioBuffer(plainLength);
        try {
            opening.open(in.nioBuffer(in.readerIndex(), length), plain.nioBuffer(0, plainLength));
        } catch (GeneralSecurityException | RuntimeException e) {
            plain.release();
            return null;
        }
        in.skipBytes(length);
        plain.writerIndex(plainLength);
        return plain;
    }

    /** The client's side: the server's answer, checked against the pinned key. */
    private void receiveAnswer(ChannelHandlerContext ctx, byte[] message) {
        byte[] payload = new byte[message.length];
        int payloadLength;
        try {
            if (handshake.getAction() != HandshakeState.READ_MESSAGE) {
                throw new NoiseException("noise: a handshake message out of turn");
            }
            payloadLength = handshake.readMessage(message, 0, message.length, payload, 0);
        } catch (GeneralSecurityException | RuntimeException | NoiseException e) {
            fail(ctx, new NoiseException("noise handshake failed: the server's answer does not match the pinned key", e));
            return;
        }
        if (payloadLength != 0) {
            fail(ctx, new NoiseException("noise handshake failed: the server's answer carries " + payloadLength
                    + " bytes of payload (expected: none)"));
            return;
        }
        sendMode = client.mode();
        finishHandshake(ctx, client.keyBytes());
    }

    /** The server's side: the client's first message goes to the handshake threads, or is shed before any work. */
    private void receiveFirstMessage(ChannelHandlerContext ctx, byte[] message) {
        answering = true;
        if (!server.respond(ctx.channel(), message, (answer, failure) -> answered(ctx, answer, failure))) {
            answering = false;
            end(ctx, new NoiseException("noise: shed, the server has too many handshakes in progress"), CloseReason.LIMIT);
        }
    }

    /** On the event loop, with what the handshake threads made of the first message. */
    private void answered(ChannelHandlerContext ctx, NoiseResponder.Answer answer, NoiseException failure) {
        answering = false;
        if (failed || removed || !ctx.channel().isActive()) {
            if (answer != null) {
                answer.destroy();
            }
            return;
        }
        if (failure != null) {
            fail(ctx, failure);
            return;
        }
        try {
            // The keys first: the client's first transport message can only follow the answer.
            TrafficCipher send = TrafficCipher.sealing(answer.sendKey());
            opening = TrafficCipher.opening(answer.receiveKey());
            sealing = send;
        } catch (GeneralSecurityException e) {
            fail(ctx, new NoiseException("noise: cannot derive the traffic keys: " + e, e));
            return;
        } finally {
            answer.destroy();
        }
        sendMode = answer.mode();
        ctx.writeAndFlush(Unpooled.wrappedBuffer(answer.message()));
        handshakeSucceeded(ctx);
    }

    private void sendHandshake(ChannelHandlerContext ctx, byte[] payload) {
        byte[] message = new byte[NoiseProtocol.LENGTH_BYTES + NoiseProtocol.MAX_HANDSHAKE_MESSAGE];
        int length;
        try {
            length = handshake.writeMessage(message, NoiseProtocol.LENGTH_BYTES, payload, 0, payload.length);
        } catch (GeneralSecurityException | RuntimeException e) {
            fail(ctx, new NoiseException("noise handshake failed: " + e, e));
            return;
        }
        message[0] = (byte) (length >>> 8);
        message[1] = (byte) length;
        ctx.writeAndFlush(Unpooled.wrappedBuffer(message, 0, NoiseProtocol.LENGTH_BYTES + length));
    }

    /** The client's traffic keys from its finished handshake. */
    private void finishHandshake(ChannelHandlerContext ctx, int keyBytes) {
        CipherStatePair split = handshake.split();
        try {
            sealing = TrafficCipher.sealing(NoiseProtocol.trafficKey(split.getSender(), keyBytes));
            opening = TrafficCipher.opening(NoiseProtocol.trafficKey(split.getReceiver(), keyBytes));
        } catch (GeneralSecurityException e) {
            fail(ctx, new NoiseException("noise: cannot derive the traffic keys: " + e, e));
            return;
        } finally {
            split.destroy();
            handshake.destroy();
            handshake = null;
        }
        handshakeSucceeded(ctx);
    }

    private void handshakeSucceeded(ChannelHandlerContext ctx) {
        handshakeTimeout.cancel(false);
        handshakeDone.trySuccess(ctx.channel());
        ctx.fireUserEventTriggered(NoiseHandshakeCompletionEvent.SUCCESS);
        if (pending != null || !pendingPromises.isEmpty()) {
            flush(ctx);
        }
    }

    /**
     * Ends the input at a bad transport message: counted once, the rest discarded, and a {@link NoiseDecoderException}
     * thrown after the messages before it have been opened. The decoder hands those on first; the session then
     * answers them and closes, as after a malformed frame.
     */
    private void failInput(ByteBuf in, String why, Throwable cause) {
        inputFailed = true;
        stats.protocolError(ProtocolErrorKind.NOISE);
        stats.closing(CloseReason.PROTOCOL_ERROR);
        in.skipBytes(in.readableBytes());
        throw new NoiseDecoderException(why, cause);
    }

    @Override
    protected void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        decode(ctx, in, out);
        if (!failed && !inputFailed && in.isReadable()) {
            // The stream ended inside a message: as a partial frame does on the plaintext port.
            stats.protocolError(ProtocolErrorKind.TRUNCATED);
            in.skipBytes(in.readableBytes());
        }
    }

    private void fail(ChannelHandlerContext ctx, NoiseException cause) {
        if (!failed) {
            stats.protocolError(ProtocolErrorKind.NOISE);
        }
        end(ctx, cause, CloseReason.PROTOCOL_ERROR);
    }

    /** Closes the connection for {@code reason}: its handshake, if not done, fails with {@code cause}. */
    private void end(ChannelHandlerContext ctx, NoiseException cause, CloseReason reason) {
        if (failed) {
            return;
        }
        failed = true;
        if (handshakeTimeout != null) {
            handshakeTimeout.cancel(false);
        }
        stats.closing(reason);
        log.debug("closing {}: {}", ctx.channel().remoteAddress(), cause.getMessage());
        if (handshakeDone.tryFailure(cause)) {
            ctx.fireUserEventTriggered(new NoiseHandshakeCompletionEvent(cause));
        }
        releasePending(cause);
        ctx.close();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        NoiseException closed = new NoiseException("connection closed during the noise handshake (is it a noise port, "
                + "and the pinned key its key?)");
        if (handshakeDone.tryFailure(closed)) {
            ctx.fireUserEventTriggered(new NoiseHandshakeCompletionEvent(closed));
        }
        super.channelInactive(ctx);
    }

    @Override
    protected void handlerRemoved0(ChannelHandlerContext ctx) {
        removed = true;
        if (handshakeTimeout != null) {
            handshakeTimeout.cancel(false);
        }
        if (handshake != null) {
            handshake.destroy();
            handshake = null;
        }
        releasePending(new NoiseException("noise handler removed"));
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (!(msg instanceof ByteBuf buf)) {
            // Fail closed: anything not sealed here (a FileRegion, say) would leave in the clear.
            ReferenceCountUtil.release(msg);
            promise.setFailure(new NoiseException("noise: cannot seal a " + msg.getClass().getSimpleName()
                    + " (expected: ByteBuf)"));
            return;
        }
        if (!promise.setUncancellable()) {
            // Cancelled before it was written: dropped, as Netty drops a cancelled write.
            buf.release();
            return;
        }
        if (failed) {
            ReferenceCountUtil.release(msg);
            promise.setFailure(new NoiseException("noise: the connection failed"));
            return;
        }
        // Before the handshake is done the write waits here, as TLS's do, and goes out sealed right after it.
        if (!buf.isReadable() && pending == null && pendingPromises.isEmpty()) {
            // An empty write is a marker that completes after the earlier writes: nothing to seal, nothing before it.
            ctx.write(buf, promise);
            return;
        }
        try {
            if (pending == null) {
                pending = ctx.alloc().ioBuffer(Math.max(buf.readableBytes(), 256));
            }
            pending.writeBytes(buf);
        } finally {
            buf.release();
        }
        if (!promise.isVoid()) {
            if (pendingPromises.size() == promiseEnds.length) {
                promiseEnds = Arrays.copyOf(promiseEnds, promiseEnds.length * 2);
            }
            promiseEnds[pendingPromises.size()] = pending.writerIndex();
            pendingPromises.add(promise);
        }
    }

    @Override
    public void flush(ChannelHandlerContext ctx) {
        if (sealing == null) {
            // Still in the handshake: what was written waits for its keys.
            ctx.flush();
            return;
        }
        if (pending != null && pending.isReadable()) {
            sealPending(ctx);
        }
        if (!pendingPromises.isEmpty() && (pending == null || !pending.isReadable())) {
            // Only empty writes (markers) since the last seal: they complete after what went before them.
            writeSealed(ctx, Unpooled.EMPTY_BUFFER, Integer.MAX_VALUE);
        }
        ctx.flush();
    }

    /** Seals what was written since the last flush: whole frames in package mode, everything in stream mode. */
    private void sealPending(ChannelHandlerContext ctx) {
        int start = pending.readerIndex();
        int end = sendMode == NoiseMode.STREAM ? pending.writerIndex() : wholeFramesEnd(start, pending.writerIndex());
        if (end == start) {
            return;
        }
        ByteBuf sealed = ctx.alloc().ioBuffer(sealedSize(start, end));
        try {
            int at = start;
            while (at < end) {
                int messageEnd = sendMode == NoiseMode.STREAM ? end : frameEnd(at);
                for (; at < messageEnd; ) {
                    int chunk = Math.min(messageEnd - at, NoiseProtocol.MAX_PLAINTEXT);
                    int sealedLength = chunk + NoiseProtocol.TAG_BYTES;
                    sealed.writeShort(sealedLength);
                    sealing.seal(pending.nioBuffer(at, chunk), sealed.nioBuffer(sealed.writerIndex(), sealedLength));
                    sealed.writerIndex(sealed.writerIndex() + sealedLength);
                    at += chunk;
                }
            }
        } catch (GeneralSecurityException | RuntimeException e) {
            sealed.release();
            fail(ctx, new NoiseException("noise: cannot seal: " + e, e));
            return;
        }
        pending.readerIndex(end);
        writeSealed(ctx, sealed, end);
        if (!pending.isReadable()) {
            pending.release();
            pending = null;
        }
    }

    /** Writes what was sealed; the promises of the writes that ended by {@code sealedEnd} complete with it. */
    private void writeSealed(ChannelHandlerContext ctx, ByteBuf sealed, int sealedEnd) {
        int done = 0;
        while (done < pendingPromises.size() && promiseEnds[done] <= sealedEnd) {
            done++;
        }
        if (done == 0) {
            ctx.write(sealed, ctx.voidPromise());
        } else if (done == 1) {
            ctx.write(sealed, pendingPromises.get(0));
        } else {
            ctx.write(sealed).addListener(new PromiseNotifier<>(pendingPromises.subList(0, done).toArray(new ChannelPromise[0])));
        }
        // A partial frame's write waits for the rest of its frame.
        pendingPromises.subList(0, done).clear();
        System.arraycopy(promiseEnds, done, promiseEnds, 0, pendingPromises.size());
    }

    private int sealedSize(int start, int end) {
        int overhead = NoiseProtocol.LENGTH_BYTES + NoiseProtocol.TAG_BYTES;
        if (sendMode == NoiseMode.STREAM) {
            return end - start + messages(end - start) * overhead;
        }
        int size = 0;
        for (int at = start; at < end; at = frameEnd(at)) {
            size += frameEnd(at) - at + messages(frameEnd(at) - at) * overhead;
        }
        return size;
    }

    private static int messages(int plaintext) {
        return (plaintext + NoiseProtocol.MAX_PLAINTEXT - 1) / NoiseProtocol.MAX_PLAINTEXT;
    }

    /** Where the frames that start at {@code start} and end by {@code limit} end: a partial frame waits for its rest. */
    private int wholeFramesEnd(int start, int limit) {
        int at = start;
        while (limit - at >= lengthWidth) {
            int next = frameEnd(at);
            if (next > limit || next <= at) {
                break;
            }
            at = next;
        }
        return at;
    }

    private int frameEnd(int at) {
        long body = lengthWidth == 2 ? pending.getUnsignedShort(at) : pending.getUnsignedInt(at);
        return (int) Math.min(Integer.MAX_VALUE, at + lengthWidth + body);
    }

    private void releasePending(Throwable cause) {
        if (pending != null) {
            pending.release();
            pending = null;
        }
        for (ChannelPromise promise : pendingPromises) {
            promise.tryFailure(cause);
        }
        pendingPromises.clear();
    }

    @Override
    public void bind(ChannelHandlerContext ctx, SocketAddress localAddress, ChannelPromise promise) {
        ctx.bind(localAddress, promise);
    }

    @Override
    public void connect(ChannelHandlerContext ctx, SocketAddress remoteAddress, SocketAddress localAddress,
            ChannelPromise promise) {
        ctx.connect(remoteAddress, localAddress, promise);
    }

    @Override
    public void disconnect(ChannelHandlerContext ctx, ChannelPromise promise) {
        ctx.disconnect(promise);
    }

    @Override
    public void close(ChannelHandlerContext ctx, ChannelPromise promise) {
        ctx.close(promise);
    }

    @Override
    public void deregister(ChannelHandlerContext ctx, ChannelPromise promise) {
        ctx.deregister(promise);
    }

    @Override
    public void read(ChannelHandlerContext ctx) {
        ctx.read();
    }
}
