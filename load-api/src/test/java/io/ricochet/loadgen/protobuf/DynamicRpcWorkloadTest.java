package io.ricochet.loadgen.protobuf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.protobuf.ByteString;
import io.ricochet.config.ServerConfig;
import io.ricochet.echo.rpc.BenchMethods;
import io.ricochet.loadgen.workload.Check;
import io.ricochet.loadgen.workload.RpcCall;
import io.ricochet.loadgen.workload.RpcConversation;
import io.ricochet.loadgen.workload.RpcReply;
import io.ricochet.rpc.RpcClient;
import io.ricochet.rpc.RpcClientConfig;
import io.ricochet.rpc.RpcClients;
import io.ricochet.rpc.RpcDispatcher;
import io.ricochet.rpc.RpcException;
import io.ricochet.rpc.RpcServer;
import io.ricochet.rpc.RpcStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The workload against the echo service's bench.update over loopback, as the rpc command would drive it. */
@Timeout(60)
class DynamicRpcWorkloadTest {
    private static final int CALLS = 300;
    private static final long SEED = 7;
    private static final long CONNECTION = 3;
    private static final String DATA = "{\"client_id\": \"{{conn}}\", \"sequence\": \"{{seq}}\", "
            + "\"client_send_time_micros\": \"{{time_us}}\", \"body\": \"aGVsbG8=\"}";

    private static RpcServer server;
    private static RpcClients clients;
    private static RpcClient client;
    private static MessageType bench;

    @BeforeAll
    static void start() throws Exception {
        RpcDispatcher methods = new RpcDispatcher();
        new BenchMethods().registerOn(methods);
        server = RpcServer.builder().config(ServerConfig.builder().host("127.0.0.1").tcpPort(0).build())
                .dispatcher(methods).build().startAndAwait();
        clients = RpcClients.create(RpcClientConfig.builder().build(), null);
        client = clients.connect(server.address()).get(20, TimeUnit.SECONDS);
        bench = Protosets.bench();
    }

    @AfterAll
    static void stop() {
        if (clients != null) {
            clients.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void everyAnswerEchoingTheRequestIsOk() throws Exception {
        String expect = "{\"client_id\": \"{{conn}}\", \"sequence\": \"{{seq}}\", \"client_send_time_micros\": "
                + "\"{{time_us}}\", \"body\": \"aGVsbG8=\", \"server_receive_time_micros\": \"0\"}";
        // server_receive_time_micros is set by the server: named with 0, it makes every answer bad, so it is left out.
        DynamicRpcWorkload workload = new DynamicRpcWorkload(BenchMethods.UPDATE, RequestData.parse(DATA, bench, SEED),
                Expectation.of(bench, RpcStatus.OK, expect.replace(", \"server_receive_time_micros\": \"0\"", ""), SEED));

        List<Check> checks = drive(workload);

        assertEquals(List.of(Check.ok()), checks.stream().distinct().toList());
    }

    @Test
    void aWrongExpectationMakesEveryAnswerBadNamingTheField() throws Exception {
        DynamicRpcWorkload workload = new DynamicRpcWorkload(BenchMethods.UPDATE, RequestData.parse(DATA, bench, SEED),
                Expectation.of(bench, RpcStatus.OK, "{\"client_id\": \"{{conn}}\", \"sequence\": \"{{seq}}\", "
                        + "\"server_sequence\": \"0\"}", SEED));

        List<Check> checks = drive(workload);

        assertEquals(CALLS, checks.size());
        for (Check check : checks) {
            assertEquals(false, check.isOk());
            assertEquals(true, check.reason().matches("field server_sequence: [1-9][0-9]* \\(expected: 0\\)"), check.reason());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"NOT_FOUND", "not_found"})
    void anExpectedStatusOtherThanOk(String code) throws Exception {
        DynamicRpcWorkload workload = new DynamicRpcWorkload("bench.nope", RequestData.parse(DATA, bench, SEED),
                Expectation.of(bench, Expectation.status(code), null, SEED));

        assertEquals(List.of(Check.ok()), drive(workload).stream().distinct().toList());
    }

    @Test
    void anUnexpectedStatusIsBad() throws Exception {
        DynamicRpcWorkload workload = new DynamicRpcWorkload("bench.nope", RequestData.parse(DATA, bench, SEED),
                Expectation.anyAnswer(bench));

        Check check = drive(workload).get(0);

        assertEquals(true, check.reason().startsWith("status NOT_FOUND (expected: OK): "), check.reason());
    }

    @Test
    void aMethodNameTheEnvelopeCannotCarry() {
        RequestData data = RequestData.parse("{}", bench, SEED);
        Expectation any = Expectation.anyAnswer(bench);

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new DynamicRpcWorkload("", data, any));

        assertEquals("method: \"\" (expected: 1 to 1,024 characters)", e.getMessage());
    }

    /** Makes the conversation's calls one after another on one connection, and checks each answer. */
    private static List<Check> drive(DynamicRpcWorkload workload) throws Exception {
        RpcConversation conversation = workload.open(TestContext.of(CONNECTION, -1));
        List<Check> checks = new ArrayList<>();
        for (long seq = 0; seq < CALLS; seq++) {
            TestContext request = TestContext.of(CONNECTION, seq);
            RpcCall call = conversation.request(request);
            checks.add(conversation.check(request, answer(call)));
        }
        return checks;
    }

    private static RpcReply answer(RpcCall call) throws InterruptedException, TimeoutException {
        try {
            ByteString payload = client.call(call.method(), call.payload()).get(20, TimeUnit.SECONDS);
            return new RpcReply(RpcStatus.OK, payload, "");
        } catch (ExecutionException e) {
            RpcException failure = (RpcException) e.getCause();
            return new RpcReply(failure.status(), ByteString.EMPTY, failure.detail());
        }
    }
}
