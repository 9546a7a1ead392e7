package io.ricochet.examples.kv;

import io.ricochet.transport.server.ServerStartException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/** {@link KvServer}'s command line: the flags, the lines it prints, and its exit statuses. */
@Command(name = "kv-server", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        version = "ricochet kv-server 0.1.0",
        description = "The example key-value service: a framed text protocol on the TCP port (put KEY VALUE, "
                + "get KEY) and the RPC methods kv.put and kv.get on the RPC port, over one store. "
                + "Port 0 binds an ephemeral port.")
final class KvServerCommand implements Callable<Integer> {
    static final int OK = 0;
    static final int FAILURE = 1;
    static final int USAGE = 2;

    /** The config's fields by the flags that set them. */
    private static final Map<String, String> FLAGS = Map.of("host", "--host", "tcpPort", "--tcp-port",
            "rpcPort", "--rpc-port", "maxKeys", "--max-keys");

    private final CompletableFuture<Void> stopRequested;

    @Spec
    CommandSpec spec;

    @Option(names = "--host", defaultValue = KvServerConfig.DEFAULT_HOST,
            description = "Address to bind (default: ${DEFAULT-VALUE}).")
    String host;

    @Option(names = "--tcp-port", defaultValue = "" + KvServerConfig.DEFAULT_TCP_PORT,
            description = "The text protocol's TCP port, 2-byte length field (default: ${DEFAULT-VALUE}).")
    int tcpPort;

    @Option(names = "--rpc-port", defaultValue = "" + KvServerConfig.DEFAULT_RPC_PORT,
            description = "The RPC port: kv.put and kv.get (default: ${DEFAULT-VALUE}).")
    int rpcPort;

    @Option(names = "--max-keys", defaultValue = "" + KvStore.DEFAULT_MAX_KEYS,
            description = "Most keys stored; a put of a new key past it is refused (default: ${DEFAULT-VALUE}).")
    int maxKeys;

    private KvServerCommand(CompletableFuture<Void> stopRequested) {
        this.stopRequested = stopRequested;
    }

    /** Runs the command until {@code stopRequested} completes; returns the exit status. */
    static int run(String[] args, CompletableFuture<Void> stopRequested) {
        return commandLine(stopRequested).execute(args);
    }

    static CommandLine commandLine(CompletableFuture<Void> stopRequested) {
        CommandLine cli = new CommandLine(new KvServerCommand(stopRequested));
        cli.setParameterExceptionHandler((e, args) -> {
            e.getCommandLine().getErr().println("kv-server: " + e.getMessage() + " (see --help)");
            return USAGE;
        });
        cli.setExecutionExceptionHandler((e, parsed, result) -> {
            parsed.getErr().println("kv-server: " + e.getMessage());
            return FAILURE;
        });
        return cli;
    }

    @Override
    public Integer call() {
        KvServerConfig config = config();
        PrintWriter out = spec.commandLine().getOut();
        KvServer server;
        try {
            server = KvServer.start(config);
        } catch (ServerStartException e) {
            spec.commandLine().getErr().println("kv-server: " + e.getMessage());
            return FAILURE;
        }
        try {
            out.println("listening tcp " + hostPort(server.tcpAddress()));
            out.println("listening rpc " + hostPort(server.rpcAddress()));
            out.flush();
            stopRequested.join();
        } finally {
            server.close();
        }
        return OK;
    }

    /** The flags as a config; a value the config refuses is a usage error, its message naming the flag. */
    private KvServerConfig config() {
        try {
            return new KvServerConfig(host, tcpPort, rpcPort, maxKeys);
        } catch (IllegalArgumentException e) {
            // The config names its field first ("tcpPort: 70000 (expected: 0..65535)"); the user typed the flag.
            String message = e.getMessage();
            int colon = message.indexOf(':');
            String field = colon < 0 ? "" : message.substring(0, colon);
            throw new ParameterException(spec.commandLine(), FLAGS.containsKey(field)
                    ? FLAGS.get(field) + message.substring(colon) : message);
        }
    }

    private static String hostPort(InetSocketAddress address) {
        return address.getHostString() + ":" + address.getPort();
    }
}
