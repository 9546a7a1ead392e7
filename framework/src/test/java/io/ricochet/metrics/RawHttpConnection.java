package io.ricochet.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A blocking HTTP/1.1 client on a plain socket, for what {@code java.net.http} hides: pipelining, never
 * reading, malformed requests, and seeing the server close. Every read gives up after {@link #READ_TIMEOUT_MS}.
 */
final class RawHttpConnection implements AutoCloseable {
    static final int READ_TIMEOUT_MS = 10_000;

    record Response(int status, Map<String, String> headers, String body) {
        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    private RawHttpConnection(Socket socket) throws IOException {
        this.socket = socket;
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
    }

    static RawHttpConnection open(InetSocketAddress address) throws IOException {
        return open(address, 0);
    }

    /** {@code receiveBuffer} 0 keeps the system default; it must be set before connecting to shrink the window. */
    static RawHttpConnection open(InetSocketAddress address, int receiveBuffer) throws IOException {
        return open(address, receiveBuffer, null);
    }

    /**
     * From the source address {@code from} (null: the system's choice): on Linux every 127.x.y.z is a loopback
     * address, so one machine can stand in for many peers.
     */
    static RawHttpConnection open(InetSocketAddress address, InetAddress from) throws IOException {
        return open(address, 0, from);
    }

    private static RawHttpConnection open(InetSocketAddress address, int receiveBuffer, InetAddress from)
            throws IOException {
        Socket socket = new Socket();
        if (receiveBuffer > 0) {
            socket.setReceiveBufferSize(receiveBuffer);
        }
        if (from != null) {
            socket.bind(new InetSocketAddress(from, 0));
        }
        socket.setSoTimeout(READ_TIMEOUT_MS);
        socket.connect(address, READ_TIMEOUT_MS);
        return new RawHttpConnection(socket);
    }

    static String httpGet(String path) {
        return "GET " + path + " HTTP/1.1\r\nHost: x\r\n\r\n";
    }

    void send(String request) throws IOException {
        send(request.getBytes(StandardCharsets.ISO_8859_1));
    }

    void send(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    /** Reads one response; the body is read by its Content-Length unless {@code head}. */
    Response readResponse(boolean head) throws IOException {
        String statusLine = readLine();
        String[] parts = statusLine.split(" ", 3);
        int status = Integer.parseInt(parts[1]);
        Map<String, String> headers = new HashMap<>();
        for (String line = readLine(); !line.isEmpty(); line = readLine()) {
            int colon = line.indexOf(':');
            headers.put(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), line.substring(colon + 1).trim());
        }
        int length = head ? 0 : Integer.parseInt(headers.getOrDefault("content-length", "0"));
        byte[] body = in.readNBytes(length);
        if (body.length < length) {
            throw new EOFException("body: " + body.length + " of " + length + " bytes");
        }
        return new Response(status, headers, new String(body, StandardCharsets.UTF_8));
    }

    Response readResponse() throws IOException {
        return readResponse(false);
    }

    /** Returns once the server has closed (EOF or reset); fails if any byte arrives first. */
    void awaitClosedByServer() throws IOException {
        int b;
        try {
            b = in.read();
        } catch (SocketException reset) {
            return;
        }
        assertEquals(-1, b, "expected the server to close, got a byte");
    }

    private String readLine() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) != '\n') {
            if (b == -1) {
                throw new EOFException("connection closed after " + line.size() + " bytes of a line");
            }
            if (b != '\r') {
                line.write(b);
            }
        }
        return line.toString(StandardCharsets.ISO_8859_1);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
