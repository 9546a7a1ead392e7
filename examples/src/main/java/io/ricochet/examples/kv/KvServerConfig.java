package io.ricochet.examples.kv;

/**
 * Where a {@link KvServer} listens and how many keys it holds; validated once, here.
 *
 * <pre>{@code
 * KvServerConfig config = new KvServerConfig("127.0.0.1", 0, 0, 10_000);   // ephemeral ports
 * KvServerConfig defaults = KvServerConfig.DEFAULTS.withPorts(7200, 7300);
 * }</pre>
 *
 * @param host    the address both listeners bind
 * @param tcpPort the text protocol's TCP port, 0 for an ephemeral one
 * @param rpcPort the RPC port, 0 for an ephemeral one
 * @param maxKeys the most keys the store holds; a put of a new key past it is refused
 */
public record KvServerConfig(String host, int tcpPort, int rpcPort, int maxKeys) {
    public static final String DEFAULT_HOST = "127.0.0.1";
    public static final int DEFAULT_TCP_PORT = 7200;
    public static final int DEFAULT_RPC_PORT = 7300;
    public static final KvServerConfig DEFAULTS = new KvServerConfig(DEFAULT_HOST, DEFAULT_TCP_PORT, DEFAULT_RPC_PORT,
            KvStore.DEFAULT_MAX_KEYS);

    public KvServerConfig {
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("host: " + (host == null ? "null" : "\"" + host + "\"")
                    + " (expected: an address)");
        }
        checkPort("tcpPort", tcpPort);
        checkPort("rpcPort", rpcPort);
        if (maxKeys < 1) {
            throw new IllegalArgumentException("maxKeys: " + maxKeys + " (expected: > 0)");
        }
    }

    /** This config on other ports. */
    public KvServerConfig withPorts(int tcpPort, int rpcPort) {
        return new KvServerConfig(host, tcpPort, rpcPort, maxKeys);
    }

    private static void checkPort(String name, int port) {
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException(name + ": " + port + " (expected: 0..65535)");
        }
    }
}
