package io.ricochet.noise;

/** Fired inbound once a connection's Noise handshake has succeeded or failed, as Netty's TLS handler does for TLS. */
public record NoiseHandshakeCompletionEvent(Throwable cause) {
    static final NoiseHandshakeCompletionEvent SUCCESS = new NoiseHandshakeCompletionEvent(null);

    public boolean isSuccess() {
        return cause == null;
    }
}
