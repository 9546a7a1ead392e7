package io.ricochet.noise;

import com.southernstorm.noise.protocol.CipherStatePair;
import com.southernstorm.noise.protocol.HandshakeState;
import io.ricochet.testing.FrameClient;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.util.Arrays;

/**
 * A blocking client of the Noise channel built from docs/protocol.md, that seals messages itself so a test can
 * alter, replay or reorder them on the wire.
 */
final class RawNoiseClient implements AutoCloseable {
    private final FrameClient socket;
    private final DataInputStream in;
    private final TrafficCipher sealing;
    private final TrafficCipher opening;
    private final int width;

    RawNoiseClient(InetSocketAddress server, byte[] serverKey, NoiseMode mode, int keyBytes, int width)
            throws IOException, GeneralSecurityException {
        this.socket = new FrameClient(server, width);
        this.in = new DataInputStream(socket.input());
        this.width = width;
        HandshakeState handshake = NoiseProtocol.newHandshake(HandshakeState.INITIATOR);
        handshake.getRemotePublicKey().setPublicKey(serverKey, 0);
        handshake.start();
        byte[] message = new byte[128];
        int length = handshake.writeMessage(message, 0, new byte[] {1, (byte) mode.code(), (byte) keyBytes}, 0, 3);
        socket.sendRaw(withLength(Arrays.copyOf(message, length)));
        byte[] answer = readMessage();
        handshake.readMessage(answer, 0, answer.length, new byte[128], 0);
        CipherStatePair split = handshake.split();
        sealing = TrafficCipher.sealing(NoiseProtocol.trafficKey(split.getSender(), keyBytes));
        opening = TrafficCipher.opening(NoiseProtocol.trafficKey(split.getReceiver(), keyBytes));
    }

    /** The next message: the frame of {@code body}, sealed, its length before it. */
    byte[] seal(byte[] body) throws GeneralSecurityException {
        byte[] frame = FrameClient.frame(width, body);
        ByteBuffer sealed = ByteBuffer.allocate(frame.length + NoiseProtocol.TAG_BYTES);
        sealing.seal(ByteBuffer.wrap(frame), sealed);
        return withLength(sealed.array());
    }

    void sendRaw(byte[] bytes) throws IOException {
        socket.sendRaw(bytes);
    }

    /** Opens the next message, which must hold exactly one frame, and returns its body. */
    byte[] receive() throws IOException, GeneralSecurityException {
        byte[] sealed = readMessage();
        ByteBuffer plain = ByteBuffer.allocate(sealed.length - NoiseProtocol.TAG_BYTES);
        opening.open(ByteBuffer.wrap(sealed), plain);
        byte[] frame = plain.array();
        return Arrays.copyOfRange(frame, width, frame.length);
    }

    void shutdownOutput() throws IOException {
        socket.shutdownOutput();
    }

    boolean isClosedByServer() throws IOException {
        return socket.isClosedByServer();
    }

    private byte[] readMessage() throws IOException {
        byte[] message = new byte[in.readUnsignedShort()];
        in.readFully(message);
        return message;
    }

    static byte[] withLength(byte[] message) {
        byte[] out = new byte[2 + message.length];
        out[0] = (byte) (message.length >>> 8);
        out[1] = (byte) message.length;
        System.arraycopy(message, 0, out, 2, message.length);
        return out;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
