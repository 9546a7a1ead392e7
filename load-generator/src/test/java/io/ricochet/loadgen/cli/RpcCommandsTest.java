package io.ricochet.loadgen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The rpc and register commands against the embedded server's RPC port, every answer verified. */
@Timeout(120)
class RpcCommandsTest {

    @Test
    void rpcVerifiesEveryAnswerAndTheServerAgrees(@TempDir Path report) throws Exception {
        Cli.Result r = Cli.run("rpc", "--clients", "5", "--requests", "2003", "--in-flight", "3", "--json",
                "--report", report.toString());
        assertEquals(0, r.exit(), r.err());
        JsonNode s = r.json();
        assertEquals(2003, s.get("requests").asLong());
        assertEquals(2003, s.get("received").asLong());
        assertEquals(2003, s.get("received_ok").asLong());
        assertEquals(0, s.get("bad").asLong());
        assertEquals(0, s.get("errors").asLong());
        assertEquals(2003, s.get("latency_us").get("count").asLong());
        assertEquals(2003.0, s.get("server").get("rpc_requests").asDouble());
        JsonNode clients = s.get("clients");
        assertEquals(5, clients.size());
        long sum = 0;
        for (JsonNode c : clients) {
            sum += c.get("ok").asLong();
            assertTrue(c.get("requests").asLong() == 400 || c.get("requests").asLong() == 401, c.toString());
        }
        assertEquals(2003, sum);
        List<String> rows = Files.readAllLines(report.resolve("clients.csv"));
        assertEquals(6, rows.size());
        for (String file : List.of("summary.json", "intervals.csv", "latency.hlog", "config.json")) {
            assertTrue(Files.size(report.resolve(file)) > 0, file);
        }
        // RPC clients connect before measuring and do not time it: no connect log of empty intervals.
        assertTrue(!Files.exists(report.resolve("connect.hlog")), "no connect.hlog for rpc");
    }

    @Test
    void registerRunsFullCyclesThroughTheAgent() {
        Cli.Result r = Cli.run("register", "--pairs", "3", "--cycles", "300", "--json");
        assertEquals(0, r.exit(), r.err());
        JsonNode s = r.json();
        assertEquals(300, s.get("received_ok").asLong());
        assertEquals(0, s.get("bad").asLong() + s.get("errors").asLong());
        for (String step : List.of("register", "call", "unregister", "call_missing")) {
            assertEquals(300, s.get("steps_latency_us").get(step).get("count").asLong(), step);
        }
        // Four server requests per cycle: register, the forwarded call, unregister, the missing call.
        assertEquals(1200.0, s.get("server").get("rpc_requests").asDouble());
    }

    /** The warmup runs on the measured connections first; nothing of it is counted, by the client or the server. */
    @Test
    void aWarmupRunsFirstAndOnlyTheMeasuredCallsCount() {
        Cli.Result r = Cli.run("rpc", "--clients", "4", "--requests", "1002", "--warmup", "3001", "--in-flight", "2",
                "--json");
        assertEquals(0, r.exit(), r.err());
        JsonNode s = r.json();
        assertEquals(1002, s.get("received_ok").asLong());
        assertEquals(1002, s.get("latency_us").get("count").asLong());
        assertEquals(1002.0, s.get("server").get("rpc_requests").asDouble(), "the server is sampled after the warmup");
        long sum = 0;
        for (JsonNode c : s.get("clients")) {
            sum += c.get("ok").asLong();
            assertEquals(c.get("requests").asLong(), c.get("ok").asLong(), c.toString());
        }
        assertEquals(1002, sum);
    }

    @Test
    void aRegisterWarmupIsNotCountedInItsSteps() {
        Cli.Result r = Cli.run("register", "--pairs", "2", "--cycles", "100", "--warmup", "60", "--json");
        assertEquals(0, r.exit(), r.err());
        JsonNode s = r.json();
        assertEquals(100, s.get("received_ok").asLong());
        for (String step : List.of("register", "call", "unregister", "call_missing")) {
            assertEquals(100, s.get("steps_latency_us").get(step).get("count").asLong(), step);
        }
        assertEquals(400.0, s.get("server").get("rpc_requests").asDouble());
    }

    @Test
    void tableHasNbagentColumns() {
        Cli.Result r = Cli.run("rpc", "--clients", "2", "--requests", "100");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("requests concurrency     received  received_ok"), r.out());
        assertTrue(r.out().contains("QPS   avg(us)    median       max       min       p99  srv_cpu srv_rss_MB"), r.out());
    }

    @Test
    void anUnreachableTargetIsOneLineAndExitOne() throws Exception {
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Cli.Result r = Cli.run("rpc", "--target", "127.0.0.1:" + port, "--requests", "10");
        assertEquals(1, r.exit());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().contains("cannot connect"), r.err());
    }

    /**
     * A server that answers pings but meets every call with silence: the run stops early, as echo's does, when as many
     * calls as there are clients have passed their deadline unanswered, rather than after every call's deadline
     * (requests / clients x timeout); and its summary counts what was sent, not what was planned.
     */
    @Test
    void aServerThatAnswersNoCallEndsTheRunEarlyAndSaysWhy() throws Exception {
        try (io.ricochet.rpc.RpcServer silent = silentRpcServer()) {
            Cli.Result r = Cli.run("rpc", "--target", "127.0.0.1:" + silent.address().getPort(), "--clients", "2",
                    "--requests", "200", "--timeout", "300ms", "--json");
            assertEquals(1, r.exit(), r.err());
            JsonNode s = r.json();
            assertTrue(s.get("requests").asLong() < 20, "stopped after the first deadlines, not 100 per client: " + r.out());
            assertEquals(s.get("requests").asLong(), s.get("errors").asLong(), "every call sent ended, none waited for: "
                    + r.out());
            long perClient = 0;
            for (JsonNode client : s.get("clients")) {
                perClient += client.get("requests").asLong();
            }
            assertEquals(s.get("requests").asLong(), perClient, "a client's requests are what it sent, not its share");
            assertEquals(0, s.get("received_ok").asLong());
            assertEquals("no reply within --timeout 300ms", s.get("first_error").asText(), "as echo says it");
        }
    }

    /** {@code received} counts the answers that came; a call that got none is an error, in a column of its own. */
    @Test
    void receivedCountsAnswersOnlyAndErrorsHaveAColumnOfTheirOwn() throws Exception {
        try (io.ricochet.rpc.RpcServer silent = silentRpcServer()) {
            String target = "127.0.0.1:" + silent.address().getPort();
            Cli.Result json = Cli.run("rpc", "--target", target, "--clients", "2", "--requests", "20", "--timeout",
                    "200ms", "--json");
            assertEquals(1, json.exit(), json.err());
            JsonNode s = json.json();
            assertTrue(s.get("errors").asLong() > 0, json.out());
            assertEquals(0, s.get("received").asLong(), "no answer came: " + json.out());
            assertEquals(s.get("requests").asLong(), s.get("received").asLong() + s.get("errors").asLong(), json.out());

            Cli.Result table = Cli.run("rpc", "--target", target, "--clients", "2", "--requests", "20", "--timeout",
                    "200ms");
            assertEquals(1, table.exit(), table.err());
            List<String> lines = table.out().lines().toList();
            int header = 0;
            while (header < lines.size() && !lines.get(header).contains("received_ok")) {
                header++;
            }
            assertTrue(header + 1 < lines.size(), table.out());
            List<String> names = List.of(lines.get(header).trim().split("\\s+"));
            List<String> cells = List.of(lines.get(header + 1).trim().split("\\s+"));
            assertEquals("0", cells.get(names.indexOf("received")), table.out());
            assertTrue(Long.parseLong(cells.get(names.indexOf("errors"))) > 0, table.out());
        }
    }

    /** An RPC server whose bench.update never answers; it owes nothing at its stop. */
    private static io.ricochet.rpc.RpcServer silentRpcServer() {
        io.ricochet.rpc.RpcDispatcher methods = new io.ricochet.rpc.RpcDispatcher();
        methods.register("bench.update", request -> new java.util.concurrent.CompletableFuture<>());
        return io.ricochet.rpc.RpcServer.builder()
                .config(io.ricochet.testing.TestServers.config(io.ricochet.config.TransportKind.NIO)
                        .udpPort(io.ricochet.config.ServerConfig.DISABLED)
                        .shutdownTimeout(java.time.Duration.ofMillis(100)).build())
                .rpc(io.ricochet.rpc.RpcConfig.builder().build()).dispatcher(methods).build().startAndAwait();
    }

    @Test
    void badCountsAreUsageErrors() {
        assertEquals(2, Cli.run("rpc", "--clients", "0").exit());
        assertEquals(2, Cli.run("register", "--cycles", "0").exit());
    }
}
