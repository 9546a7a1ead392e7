package io.ricochet.rpc;

import com.google.protobuf.ByteString;
import io.ricochet.config.Checks;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * Decides whether a connection may use an RPC server, from the credential its client gives once, with the
 * built-in {@code rpc.auth} call, before anything else. Until then the connection may only ping and
 * authenticate; every other request is answered {@code UNAUTHENTICATED}, and a wrong credential closes it, as does
 * not authenticating within {@link RpcConfig#authTimeout} of the accept (over TLS, of the handshake's end).
 * Runs on the connection's event loop: it must not block.
 */
@FunctionalInterface
public interface RpcAuthenticator {
    /** Whether {@code credential} admits the connection. */
    boolean accepts(ByteString credential);

    /**
     * Told of each request refused {@code UNAUTHENTICATED} because its connection has not authenticated, so
     * the server's owner can count or report it; nothing by default. Runs on the event loop: must not block.
     */
    default void refused(String method, SocketAddress peer) {
    }

    /**
     * Told of each connection closed before it authenticated, and why: it ran out of {@link RpcConfig#authTimeout},
     * or newer connections displaced it ({@link RpcConfig#maxUnauthenticated}); nothing by default. Runs on the
     * connection's event loop: must not block.
     */
    default void dropped(SocketAddress peer, String why) {
    }

    /**
     * Admits connections that present {@code token} (UTF-8), compared in constant time. Send it over TLS:
     * anyone who sees it can present it.
     */
    static RpcAuthenticator bearerToken(String token) {
        Checks.notNull("token", token);
        if (token.isEmpty()) {
            throw new IllegalArgumentException("token: empty (expected: a secret of at least one character)");
        }
        byte[] expected = token.getBytes(StandardCharsets.UTF_8);
        return credential -> MessageDigest.isEqual(expected, credential.toByteArray());
    }
}
