package io.ricochet.transport;

import io.ricochet.config.ServerConfig;
import io.ricochet.config.TransportKind;
import io.ricochet.echo.ReverseEchoHandler;
import io.ricochet.jmh.BenchmarkBase;
import io.ricochet.jmh.Wire;
import io.ricochet.transport.server.RicochetServer;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.Socket;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * One real loopback round trip through a Ricochet echo server per operation: TCP and UDP, per transport.
 * The client is a plain blocking JDK socket, the same for every transport, so differences are the server's.
 */
@State(Scope.Benchmark)
public class LoopbackRoundTripBenchmark extends BenchmarkBase {
    @Param({"nio", "epoll", "io_uring"})
    public String transport;

    @Param({"tcp", "udp"})
    public String protocol;

    @Param({"64"})
    public int size;

    private RicochetServer server;
    private Socket socket;
    private OutputStream out;
    private DataInputStream in;
    private DatagramSocket datagrams;
    private DatagramPacket request;
    private DatagramPacket reply;
    private byte[] frame;
    private byte[] replyBody;

    @Setup(Level.Trial)
    public void setup() throws IOException {
        TransportKind kind = TransportKind.fromLabel(transport);
        if (!IoTransport.isAvailable(kind)) {
            throw new IllegalStateException(transport + " is not available here");
        }
        server = RicochetServer.builder().config(ServerConfig.builder().host("127.0.0.1").ephemeralPorts().ioThreads(1)
                .transport(kind).build()).handler(new ReverseEchoHandler()).build().startAndAwait();
        frame = new byte[2 + size];
        frame[0] = (byte) (size >>> 8);
        frame[1] = (byte) size;
        System.arraycopy(Wire.body(size, SEED), 0, frame, 2, size);
        replyBody = new byte[size];
        if (protocol.equals("tcp")) {
            socket = new Socket(InetAddress.getLoopbackAddress(), server.tcpAddress().getPort());
            socket.setTcpNoDelay(true);
            out = socket.getOutputStream();
            in = new DataInputStream(socket.getInputStream());
        } else {
            datagrams = new DatagramSocket(0, InetAddress.getLoopbackAddress());
            datagrams.connect(server.udpAddress());
            request = new DatagramPacket(frame, frame.length);
            reply = new DatagramPacket(new byte[2 + size], 2 + size);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        if (socket != null) {
            socket.close();
        }
        if (datagrams != null) {
            datagrams.close();
        }
        server.close();
    }

    @Benchmark
    public byte[] roundTrip() throws IOException {
        if (socket != null) {
            out.write(frame);
            in.readUnsignedShort();
            in.readFully(replyBody);
            return replyBody;
        }
        datagrams.send(request);
        datagrams.receive(reply);
        return reply.getData();
    }
}
