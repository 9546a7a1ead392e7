package io.ricochet.loadgen.protobuf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import com.google.protobuf.ByteString;
import com.google.protobuf.Int64Value;
import com.google.protobuf.Timestamp;
import io.ricochet.loadgen.protobuf.testproto.Deep;
import io.ricochet.loadgen.protobuf.testproto.Inner;
import io.ricochet.loadgen.protobuf.testproto.Order;
import io.ricochet.loadgen.workload.Check;
import io.ricochet.loadgen.workload.RpcReply;
import io.ricochet.rpc.RpcStatus;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class ExpectationTest {
    private static final long SEED = 42;
    private static final MessageType ORDER = Protosets.order();
    private static final TestContext REQUEST = TestContext.of(3, 7);

    @ParameterizedTest
    @CsvSource({"OK, OK", "not_found, NOT_FOUND", " Deadline_Exceeded , DEADLINE_EXCEEDED"})
    void statusesByNameInAnyCase(String code, RpcStatus status) {
        assertEquals(status, Expectation.status(code));
    }

    @Test
    void anUnknownStatusListsThem() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Expectation.status("MISSING"));

        assertEquals("unknown status MISSING (expected: one of OK, NOT_FOUND, ALREADY_EXISTS, DEADLINE_EXCEEDED, "
                + "UNAVAILABLE, INVALID_ARGUMENT, RESOURCE_EXHAUSTED, INTERNAL, CANCELLED, UNAUTHENTICATED)", e.getMessage());
    }

    static Stream<Arguments> subsets() {
        Order.Builder full = Order.newBuilder().setId("a").setCount(5).setBig(-1L).setStatus(Order.Status.SHIPPED)
                .setToken(ByteString.copyFromUtf8("hi")).addTags("a").addTags("b")
                .putStock("a", 1).putStock("b", 2)
                .addLines(Order.Line.newBuilder().setSku("x").setQuantity(2))
                .setInner(Inner.newBuilder().setName("b").setDeep(Deep.newBuilder().setId(9)))
                .setPlacedAt(Timestamp.newBuilder().setSeconds(1_704_153_600))
                .setLimit(Int64Value.of(3)).setMaybe(4);
        return Stream.of(
                arguments("{\"id\": \"a\"}", full, null),
                arguments("{\"id\": \"z\"}", full, "field id: \"a\" (expected: \"z\")"),
                arguments("{\"count\": 0}", Order.newBuilder(), null),
                arguments("{\"count\": 0}", full, "field count: 5 (expected: 0)"),
                arguments("{\"count\": \"5\", \"big\": \"18446744073709551615\"}", full, null),
                arguments("{\"big\": 1}", full, "field big: 18446744073709551615 (expected: 1)"),
                arguments("{\"status\": \"OPEN\"}", full, "field status: SHIPPED (expected: OPEN)"),
                arguments("{\"token\": \"aGk=\"}", full, null),
                arguments("{\"token\": \"aG8=\"}", full, "field token: \"aGk=\" (expected: \"aG8=\")"),
                arguments("{\"inner\": {\"name\": \"b\"}}", full, null),
                arguments("{\"inner\": {\"name\": \"a\"}}", full, "field inner.name: \"b\" (expected: \"a\")"),
                arguments("{\"inner\": {\"name\": \"a\"}}", Order.newBuilder(), "field inner.name: \"\" (expected: \"a\")"),
                arguments("{\"inner\": {\"deep\": {\"id\": 8}}}", full, "field inner.deep.id: 9 (expected: 8)"),
                arguments("{\"inner\": {}}", Order.newBuilder(), null),
                arguments("{\"tags\": [\"a\", \"b\"]}", full, null),
                arguments("{\"tags\": [\"a\"]}", full, "field tags: [\"a\", \"b\"] (expected: [\"a\"])"),
                arguments("{\"tags\": [\"b\", \"a\"]}", full, "field tags: [\"a\", \"b\"] (expected: [\"b\", \"a\"])"),
                arguments("{\"stock\": {\"b\": 2, \"a\": 1}}", full, null),
                arguments("{\"stock\": {\"a\": 1}}", full, "field stock: {\"a\": 1, \"b\": 2} (expected: {\"a\": 1})"),
                arguments("{\"lines\": [{\"sku\": \"x\", \"quantity\": 2}]}", full, null),
                arguments("{\"lines\": [{\"sku\": \"x\"}]}", full,
                        "field lines: [{\"sku\":\"x\",\"quantity\":2}] (expected: [{\"sku\":\"x\"}])"),
                arguments("{\"placed_at\": \"2024-01-02T00:00:00Z\"}", full, null),
                arguments("{\"placed_at\": \"2024-01-01T00:00:00Z\"}", full,
                        "field placed_at: \"2024-01-02T00:00:00Z\" (expected: \"2024-01-01T00:00:00Z\")"),
                arguments("{\"limit\": \"4\"}", full, "field limit: \"3\" (expected: \"4\")"),
                arguments("{\"maybe\": null}", Order.newBuilder(), null),
                arguments("{\"maybe\": null}", full, "field maybe: 4 (expected: not set)"),
                arguments("{\"maybe\": 0}", Order.newBuilder(), null),
                arguments("{\"first_line\": null}", Order.newBuilder().setFirstLine(Order.Line.newBuilder().setSku("s")),
                        "field first_line: {\"sku\":\"s\"} (expected: not set)"),
                arguments("{\"id\": \"a\", \"count\": 6, \"inner\": {\"name\": \"c\"}}", full,
                        "field count: 5 (expected: 6)"));
    }

    @ParameterizedTest(name = "{0} of {1}")
    @MethodSource
    void subsets(String json, Order.Builder answer, String reason) {
        Check check = Expectation.of(ORDER, RpcStatus.OK, json, SEED).check(REQUEST, ok(answer.build().toByteString()));

        assertEquals(reason, check.reason());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "{\"id\": \"{{conn}}-{{seq}}\", \"count\": \"{{seq}}\"} | 3-7 | 7 |",
            "{\"id\": \"{{conn}}-{{seq}}\", \"count\": \"{{seq}}\"} | 3-7 | 8 | field count: 8 (expected: 7)",
            "{\"id\": \"{{conn}}-{{seq}}\", \"count\": \"{{seq}}\"} | 3-8 | 7 | field id: \"3-8\" (expected: \"3-7\")",
            "{\"inner\": {\"deep\": {\"id\": \"{{time_us}}\"}}} | x | 0 | field inner.deep.id: 0 (expected: 1700000000000007)"})
    void placeholdersAreFilledInForTheCall(String json, String id, long count, String reason) {
        Expectation expectation = Expectation.of(ORDER, RpcStatus.OK, json, SEED);
        Order answer = Order.newBuilder().setId(id).setCount(count).build();

        assertEquals(reason, expectation.check(REQUEST, ok(answer.toByteString())).reason());
    }

    @Test
    void randomBytesAreTheRequestsOwn() {
        RequestData data = RequestData.parse("{\"id\": \"{{rand:8}}\", \"count\": 1}", ORDER, SEED);
        Expectation expectation = Expectation.of(ORDER, RpcStatus.OK, "{\"id\": \"{{rand:8}}\"}", SEED);

        for (long seq = 0; seq < 10; seq++) {
            TestContext request = TestContext.of(1, seq);
            assertEquals(Check.ok(), expectation.check(request, ok(data.payload(request))));
            assertEquals(false, expectation.check(TestContext.of(1, seq + 1), ok(data.payload(request))).isOk());
        }
    }

    static Stream<Arguments> statuses() {
        return Stream.of(
                arguments(RpcStatus.OK, reply(RpcStatus.NOT_FOUND, "no method bench.nope"),
                        "status NOT_FOUND (expected: OK): no method bench.nope"),
                arguments(RpcStatus.OK, reply(RpcStatus.UNAVAILABLE, ""), "status UNAVAILABLE (expected: OK)"),
                arguments(RpcStatus.NOT_FOUND, reply(RpcStatus.NOT_FOUND, "no method bench.nope"), null),
                arguments(RpcStatus.NOT_FOUND, ok(ByteString.EMPTY), "status OK (expected: NOT_FOUND)"),
                arguments(RpcStatus.NOT_FOUND, reply(RpcStatus.INTERNAL, "x".repeat(300)),
                        "status INTERNAL (expected: NOT_FOUND): " + "x".repeat(200 - 39 - 1) + "…"));
    }

    @ParameterizedTest
    @MethodSource
    void statuses(RpcStatus expected, RpcReply reply, String reason) {
        // The JSON applies to OK answers only: with another status expected, it is checked but not applied.
        Expectation expectation = Expectation.of(ORDER, expected, "{\"id\": \"a\"}", SEED);

        assertEquals(reason, expectation.check(REQUEST, reply).reason());
    }

    @Test
    void anAnswerThatIsNotOfTheType() {
        ByteString truncated = ByteString.copyFrom(new byte[]{0x0a, 0x05, 'a'});

        Check check = Expectation.anyAnswer(ORDER).check(REQUEST, ok(truncated));

        assertTrue(check.reason().startsWith("the answer is not a ricochet.loadgen.test.Order: While parsing a protocol "
                + "message, the input ended unexpectedly"), check.reason());
        assertTrue(check.reason().length() <= Expectation.MAX_REASON, check.reason());
    }

    @Test
    void anyAnswerOfTheTypeIsOk() {
        assertEquals(Check.ok(), Expectation.anyAnswer(ORDER).check(REQUEST, ok(Order.newBuilder().setId("x").build().toByteString())));
        assertEquals(Check.ok(), Expectation.of(ORDER, RpcStatus.OK, null, SEED).check(REQUEST, ok(ByteString.EMPTY)));
    }

    @Test
    void longValuesAreCutSoBothShow() {
        Expectation expectation = Expectation.of(ORDER, RpcStatus.OK, "{\"id\": \"" + "e".repeat(500) + "\"}", SEED);

        String reason = expectation.check(REQUEST, ok(Order.newBuilder().setId("a".repeat(500)).build().toByteString())).reason();

        assertEquals("field id: \"" + "a".repeat(FieldValues.SHOWN - 2) + "… (expected: \"" + "e".repeat(FieldValues.SHOWN - 2)
                + "…)", reason);
        assertTrue(reason.length() <= Expectation.MAX_REASON, reason);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "{\"nope\": 1} | Cannot find field: nope in message ricochet.loadgen.test.Order",
            "{\"inner\": {\"name\": 1.5, \"deep\": {\"id\": -1}}} | field inner.deep.id: Out of range uint64 value: -1",
            "{\"id\": \"{{nope}}\"} | {{nope}} names no placeholder (expected: {{seq}}, {{conn}}, {{worker}}, {{rand:N}} or {{time_us}})"})
    void badExpectedJson(String json, String message) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Expectation.of(ORDER, RpcStatus.OK, json, SEED));

        assertEquals(message, e.getMessage());
    }

    private static RpcReply ok(ByteString payload) {
        return new RpcReply(RpcStatus.OK, payload, "");
    }

    private static RpcReply reply(RpcStatus status, String detail) {
        return new RpcReply(status, ByteString.EMPTY, detail);
    }
}
