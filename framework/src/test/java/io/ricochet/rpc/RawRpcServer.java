package io.ricochet.rpc;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/** A listener on an ephemeral loopback port whose connections are {@link RawRpcPeer}s: a server that answers by hand. */
final class RawRpcServer implements AutoCloseable {
    private final ServerSocket listener;

    RawRpcServer() throws IOException {
        listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        listener.setSoTimeout(10_000);
    }

    InetSocketAddress address() {
        return (InetSocketAddress) listener.getLocalSocketAddress();
    }

    /** The next connection; fails after 10 s without one. */
    RawRpcPeer accept() throws IOException {
        return new RawRpcPeer(listener.accept());
    }

    @Override
    public void close() throws IOException {
        listener.close();
    }
}
