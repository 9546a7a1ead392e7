package io.ricochet.rpc;

import io.ricochet.rpc.proto.Envelope;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.List;

/**
 * A blocking RPC peer that writes and reads envelopes as they are on the wire (4-byte length, then the
 * envelope), for what a well-behaved client would never send, for a peer that never reads, and, accepted
 * by a {@link RawRpcServer}, for a server that answers as it likes. Sends may come from several threads.
 */
final class RawRpcPeer implements AutoCloseable {
    private final Socket socket;
    private final DataInputStream in;
    private final DataOutputStream out;

    /** With {@code receiveBufferSize > 0}, a small TCP window set before connecting. */
    RawRpcPeer(InetSocketAddress server, int receiveBufferSize) throws IOException {
        socket = new Socket();
        if (receiveBufferSize > 0) {
            socket.setReceiveBufferSize(receiveBufferSize);
        }
        socket.setSoTimeout(10_000);
        socket.connect(server, 5_000);
        in = new DataInputStream(socket.getInputStream());
        out = new DataOutputStream(socket.getOutputStream());
    }

    /** The server end of a connection {@code accepted}. */
    RawRpcPeer(Socket accepted) throws IOException {
        socket = accepted;
        socket.setSoTimeout(10_000);
        in = new DataInputStream(socket.getInputStream());
        out = new DataOutputStream(socket.getOutputStream());
    }

    synchronized void send(Envelope envelope) throws IOException {
        sendAll(List.of(envelope));
    }

    /** All of {@code envelopes}, each after its 4-byte length, in one write to the socket. */
    synchronized void sendAll(List<Envelope> envelopes) throws IOException {
        ByteArrayOutputStream framed = new ByteArrayOutputStream();
        DataOutputStream frames = new DataOutputStream(framed);
        for (Envelope envelope : envelopes) {
            byte[] bytes = envelope.toByteArray();
            frames.writeInt(bytes.length);
            frames.write(bytes);
        }
        out.write(framed.toByteArray());
        out.flush();
    }

    /** One frame of {@code body} as it is, envelope or not. */
    synchronized void sendFrame(byte[] body) throws IOException {
        out.writeInt(body.length);
        out.write(body);
        out.flush();
    }

    /** The next envelope; fails after 10 s without one, or at the end of the stream. */
    Envelope receive() throws IOException {
        byte[] bytes = new byte[in.readInt()];
        in.readFully(bytes);
        return Envelope.parseFrom(bytes);
    }

    /** Ends this end's stream (a FIN) and goes on reading: a half-close. */
    void shutdownOutput() throws IOException {
        socket.shutdownOutput();
    }

    /** Closes with a reset (RST) instead of a FIN, as a crashed process or a lost host's firewall does. */
    void reset() throws IOException {
        socket.setSoLinger(true, 0);
        socket.close();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
