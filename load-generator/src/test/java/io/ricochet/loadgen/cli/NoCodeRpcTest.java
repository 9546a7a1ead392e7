package io.ricochet.loadgen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.ricochet.config.ServerConfig;
import io.ricochet.config.TransportKind;
import io.ricochet.echo.rpc.proto.BenchMessage;
import io.ricochet.rpc.RpcClient;
import io.ricochet.rpc.RpcClientConfig;
import io.ricochet.rpc.RpcClients;
import io.ricochet.rpc.RpcConfig;
import io.ricochet.rpc.RpcDispatcher;
import io.ricochet.rpc.RpcHandler;
import io.ricochet.rpc.RpcServer;
import io.ricochet.testing.TestServers;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * RPC load with no code, as ghz's: a method from a descriptor set that protoc's plugin wrote at build time, requests
 * from JSON with placeholders, answers checked against a JSON subset: against the echo server's bench.update, and a
 * method a client registered at the agent.
 */
@Timeout(120)
class NoCodeRpcTest {
    /** ricochet_bench.proto's descriptor set, as the echo-service build writes it. */
    static final Path BENCH = Path.of("..", "echo-service", "target", "generated-resources", "protobuf",
            "descriptor-sets", "ricochet_bench.protoset");
    private static final String TYPE = "ricochet.bench.BenchMessage";

    static String[] args(String target, String method, String data, String expect, String... more) {
        java.util.List<String> a = new java.util.ArrayList<>(java.util.List.of("rpc", "--proto", BENCH.toString(),
                "--method", method, "--request-type", TYPE, "--response-type", TYPE, "--data", data,
                "--clients", "4", "--in-flight", "2", "--requests", "2000", "--json"));
        if (target != null) {
            a.addAll(java.util.List.of("--target", target));
        }
        if (expect != null) {
            a.addAll(java.util.List.of("--expect", expect));
        }
        a.addAll(java.util.List.of(more));
        return a.toArray(String[]::new);
    }

    @Test
    void benchUpdateLoadsFromItsDescriptorSetAndEveryAnswerIsChecked() {
        assertTrue(Files.isRegularFile(BENCH), "the echo-service build writes " + BENCH);
        Cli.Result r = Cli.run(args(null, "bench.update", "{\"client_id\": \"{{conn}}\", \"sequence\": \"{{seq}}\", "
                + "\"body\": \"aGVsbG8=\"}", "{\"client_id\": \"{{conn}}\", \"sequence\": \"{{seq}}\", \"body\": "
                + "\"aGVsbG8=\"}"));
        assertEquals(0, r.exit(), r.err());
        JsonNode s = r.json();
        assertEquals(2000, s.get("received_ok").asLong(), r.out());
        assertEquals(0, s.get("bad").asLong());
        assertEquals(2000.0, s.get("server").get("rpc_requests").asDouble());
    }

    @Test
    void aWrongExpectationMakesEveryAnswerBadNamingTheFieldAndExitsOne() {
        Cli.Result r = Cli.run(args(null, "bench.update", "{\"client_id\": 7}", "{\"client_id\": 8}"));
        assertEquals(1, r.exit(), r.err());
        JsonNode s = r.json();
        assertEquals(2000, s.get("bad").asLong(), r.out());
        assertEquals(0, s.get("received_ok").asLong());
        assertTrue(s.get("first_bad").asText().endsWith(": field client_id: 7 (expected: 8)"), s.get("first_bad").asText());
    }

    @Test
    void aMethodThatAClientRegisteredAtTheAgentIsCalledThroughIt() throws Exception {
        RpcServer agent = RpcServer.builder().config(TestServers.config(TransportKind.NIO).udpPort(ServerConfig.DISABLED)
                .build()).rpc(RpcConfig.builder().build()).dispatcher(new RpcDispatcher()).agent(true).build()
                .startAndAwait();
        try (agent; RpcClients owners = RpcClients.create(RpcClientConfig.builder().build(), null)) {
            RpcClient owner = owners.connect(agent.address()).join();
            // The owner stamps what it is sent, as a service of the user's would answer.
            owner.serve("orders.place", RpcHandler.sync(payload -> {
                try {
                    return BenchMessage.parseFrom(payload).toBuilder().setServerSequence(9).build().toByteString();
                } catch (com.google.protobuf.InvalidProtocolBufferException e) {
                    throw new IllegalArgumentException(e);
                }
            })).join();
            String target = agent.address().getHostString() + ":" + agent.address().getPort();
            Cli.Result r = Cli.run(args(target, "orders.place", "{\"client_id\": \"{{conn}}\"}",
                    "{\"client_id\": \"{{conn}}\", \"server_sequence\": 9}"));
            assertEquals(0, r.exit(), r.err());
            assertEquals(2000, r.json().get("received_ok").asLong(), r.out());
            Cli.Result missing = Cli.run(args(target, "orders.cancel", "{}", null));
            assertEquals(1, missing.exit(), missing.err());
            assertTrue(missing.json().get("first_bad").asText().contains("status NOT_FOUND (expected: OK)"),
                    missing.out());
        }
    }
}
