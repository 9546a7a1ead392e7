package io.ricochet.examples.kv;

import static io.ricochet.examples.kv.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

@Timeout(30)
class KvServerCommandTest {
    private static final Pattern LISTENING = Pattern.compile(
            "listening tcp 127\\.0\\.0\\.1:(\\d+)\nlistening rpc 127\\.0\\.0\\.1:(\\d+)\n");

    @Test
    void itPrintsWhereItListensServesAndStopsWhenAsked() {
        CompletableFuture<Void> stop = new CompletableFuture<>();
        Lines out = new Lines();
        StringWriter err = new StringWriter();
        CommandLine cli = KvServerCommand.commandLine(stop);
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        ExecutorService thread = Executors.newSingleThreadExecutor();
        try {
            CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(
                    () -> cli.execute("--tcp-port", "0", "--rpc-port", "0", "--max-keys", "5"), thread);
            Matcher bound = await(out.matching(LISTENING));
            InetSocketAddress tcp = new InetSocketAddress("127.0.0.1", Integer.parseInt(bound.group(1)));
            try (TextClient client = new TextClient(tcp)) {
                assertEquals("ok", client.call("put k v"));
                assertEquals("value v", client.call("get k"));
            }
            stop.complete(null);
            assertEquals(KvServerCommand.OK, await(exit), err.toString());
            assertEquals("", err.toString());
        } finally {
            stop.complete(null);
            thread.shutdownNow();
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '\'', value = {
        "--bogus             | kv-server: Unknown option: '--bogus' (see --help)",
        "--tcp-port=70000    | kv-server: --tcp-port: 70000 (expected: 0..65535) (see --help)",
        "--rpc-port=-1       | kv-server: --rpc-port: -1 (expected: 0..65535) (see --help)",
        "--max-keys=0        | kv-server: --max-keys: 0 (expected: > 0) (see --help)",
        "--tcp-port=x        | kv-server: Invalid value for option '--tcp-port': 'x' is not an int (see --help)",
        "--host=             | kv-server: --host: \"\" (expected: an address) (see --help)",
    })
    void aBadFlagIsOneLineOnStderrAndExitTwo(String flag, String line) {
        StringWriter err = new StringWriter();
        StringWriter out = new StringWriter();
        CommandLine cli = KvServerCommand.commandLine(CompletableFuture.completedFuture(null));
        cli.setErr(new PrintWriter(err, true));
        cli.setOut(new PrintWriter(out, true));
        assertEquals(KvServerCommand.USAGE, cli.execute(flag));
        assertEquals(line + System.lineSeparator(), err.toString());
        assertEquals("", out.toString());
    }

    @ParameterizedTest
    @CsvSource({"tcp", "rpc"})
    void aPortThatCannotBeBoundIsOneLineAndExitOne(String which) {
        try (KvServer taken = KvServer.start(new KvServerConfig("127.0.0.1", 0, 0, 1))) {
            String port = Integer.toString((which.equals("tcp") ? taken.tcpAddress() : taken.rpcAddress()).getPort());
            StringWriter err = new StringWriter();
            CommandLine cli = KvServerCommand.commandLine(CompletableFuture.completedFuture(null));
            cli.setErr(new PrintWriter(err, true));
            int exit = cli.execute("--tcp-port", which.equals("tcp") ? port : "0", "--rpc-port",
                    which.equals("rpc") ? port : "0");
            assertEquals(KvServerCommand.FAILURE, exit);
            assertTrue(err.toString().matches("kv-server: cannot bind tcp 127\\.0\\.0\\.1:" + port + ": .*\\R"),
                    err.toString());
        }
    }

    /** What the command prints, watched for a pattern. */
    private static final class Lines extends Writer {
        private final StringBuilder text = new StringBuilder();
        private Pattern wanted;
        private CompletableFuture<Matcher> found;

        synchronized CompletableFuture<Matcher> matching(Pattern pattern) {
            wanted = pattern;
            found = new CompletableFuture<>();
            look();
            return found;
        }

        @Override
        public synchronized void write(char[] chars, int offset, int length) {
            text.append(chars, offset, length);
            look();
        }

        private void look() {
            if (wanted != null) {
                Matcher m = wanted.matcher(text.toString().replace(System.lineSeparator(), "\n"));
                if (m.find()) {
                    found.complete(m);
                }
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    }
}
