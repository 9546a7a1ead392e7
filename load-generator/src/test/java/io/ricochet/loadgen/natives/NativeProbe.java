package io.ricochet.loadgen.natives;

import io.netty.channel.epoll.Epoll;
import io.netty.handler.codec.quic.Quic;
import io.netty.handler.ssl.OpenSsl;
import io.ricochet.config.TransportKind;
import io.ricochet.transport.IoTransport;

/** Run in a JVM of its own by {@link NativeLibrariesTest}: which of Netty's native libraries load, and why not. */
public final class NativeProbe {
    private NativeProbe() {
    }

    public static void main(String[] args) {
        System.out.println("epoll=" + Epoll.isAvailable() + " openssl=" + OpenSsl.isAvailable() + " quic="
                + Quic.isAvailable());
        System.out.println("io=" + IoTransport.resolve(TransportKind.AUTO).label());
        if (!Epoll.isAvailable()) {
            System.out.println("epoll: " + Epoll.unavailabilityCause());
        }
    }
}
