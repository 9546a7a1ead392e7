package io.ricochet.testing;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;

/** A blocking TCP client speaking the length-prefixed protocol, for tests. Reads time out after 10 s. */
public final class FrameClient implements AutoCloseable {
    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;
    private final int width;

    public FrameClient(InetSocketAddress server, int width) throws IOException {
        this(server, width, 0);
    }

    /** With {@code receiveBufferSize > 0}, a small TCP window set before connecting, for backpressure tests. */
    public FrameClient(InetSocketAddress server, int width, int receiveBufferSize) throws IOException {
        this(server, width, receiveBufferSize, null);
    }

    /** A client whose socket is bound to {@code local} (such as 127.0.0.2), for tests of bounds per source address. */
    public static FrameClient from(InetAddress local, InetSocketAddress server, int width) throws IOException {
        return new FrameClient(server, width, 0, local);
    }

    private FrameClient(InetSocketAddress server, int width, int receiveBufferSize, InetAddress local)
            throws IOException {
        this.socket = new Socket();
        if (local != null) {
            socket.bind(new InetSocketAddress(local, 0));
        }
        if (receiveBufferSize > 0) {
            socket.setReceiveBufferSize(receiveBufferSize);
        }
        socket.setTcpNoDelay(true);
        socket.setSoTimeout(10_000);
        socket.connect(server, 5_000);
        this.in = new DataInputStream(socket.getInputStream());
        this.out = socket.getOutputStream();
        this.width = width;
    }

    public static byte[] frame(int width, byte[] body) {
        return Frames.encode(width, body);
    }

    public void send(byte[] body) throws IOException {
        out.write(Frames.encode(width, body));
        out.flush();
    }

    public void sendRaw(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    /** Reads one reply body. */
    public byte[] receive() throws IOException {
        long length = width == 2 ? in.readUnsignedShort() : Integer.toUnsignedLong(in.readInt());
        byte[] body = new byte[(int) length];
        in.readFully(body);
        return body;
    }

    /** Reads until the server closes and returns what arrived; fails if it does not close within 10 s. */
    public byte[] readUntilClosed() throws IOException {
        ByteArrayOutputStream rest = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        try {
            int n;
            while ((n = in.read(buf)) >= 0) {
                rest.write(buf, 0, n);
            }
        } catch (SocketTimeoutException e) {
            throw new AssertionError("server did not close the connection within 10 s", e);
        } catch (IOException e) {
            // A reset also means closed.
        }
        return rest.toByteArray();
    }

    /** True once the server has closed: a read returns end of stream or a reset. */
    public boolean isClosedByServer() throws IOException {
        try {
            return in.read() < 0;
        } catch (EOFException e) {
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    public void shutdownOutput() throws IOException {
        socket.shutdownOutput();
    }

    public Socket socket() {
        return socket;
    }

    public InputStream input() {
        return in;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
