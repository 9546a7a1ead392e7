package io.ricochet.loadgen.protobuf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Timestamp;
import com.google.protobuf.util.JsonFormat;
import io.ricochet.echo.rpc.proto.BenchMessage;
import io.ricochet.loadgen.payload.Template;
import io.ricochet.loadgen.protobuf.testproto.Order;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class RequestDataTest {
    private static final long SEED = 42;
    private static final MessageType BENCH = Protosets.bench();
    private static final MessageType ORDER = Protosets.order();

    @Test
    void dataWithoutPlaceholdersIsEncodedOnce() throws InvalidProtocolBufferException {
        RequestData data = RequestData.parse("{\"client_id\": 7, \"sequence\": \"9\", \"body\": \"aGk=\"}", BENCH, SEED);

        ByteString first = data.payload(TestContext.of(1, 0));
        assertSame(first, data.payload(TestContext.of(2, 5)));
        assertFalse(data.hasPlaceholders());
        assertEquals(BenchMessage.newBuilder().setClientId(7).setSequence(9).setBody(ByteString.copyFromUtf8("hi")).build(),
                BenchMessage.parseFrom(first));
    }

    @ParameterizedTest
    @MethodSource("contexts")
    void placeholdersInStringsAndInNumbersGivenAsStrings(TestContext request) throws InvalidProtocolBufferException {
        RequestData data = RequestData.parse("{\"clientId\": \"{{conn}}\", \"sequence\": \"{{seq}}\", "
                + "\"client_send_time_micros\": \"{{time_us}}\", \"server_sequence\": \"{{worker}}00\"}", BENCH, SEED);

        BenchMessage sent = BenchMessage.parseFrom(data.payload(request));

        assertTrue(data.hasPlaceholders());
        assertEquals(BenchMessage.newBuilder().setClientId(request.connection()).setSequence(request.sequence())
                .setClientSendTimeMicros(request.sendTimeMicros()).setServerSequence(request.worker() * 100L).build(), sent);
    }

    static Stream<TestContext> contexts() {
        return Stream.of(TestContext.of(0, 0), TestContext.of(3, 17), new TestContext(12, 1_000_000, 2, 1_764_000_000_000_000L));
    }

    /** Each kind of place a placeholder can stand, every one set per request as the JSON, filled in, would parse. */
    static Stream<Arguments> placeholdersAnywhere() {
        return Stream.of(
                arguments("string", "{\"id\": \"order-{{conn}}-{{seq}}\"}"),
                arguments("escapes kept", "{\"id\": \"\\\"q\\\" \\u00e9 {{seq}}\"}"),
                arguments("int64 beside constants", "{\"count\": \"{{seq}}\", \"id\": \"fixed\", \"urgent\": true}"),
                arguments("uint32", "{\"small\": \"{{seq}}\"}"),
                arguments("uint64 at its top", "{\"big\": \"1844674407370955161{{worker}}\"}"),
                arguments("int64 in JsonFormat's wider syntax", "{\"count\": \"{{seq}}e2\"}"),
                arguments("double", "{\"price\": \"{{seq}}.25\"}"),
                arguments("enum by number", "{\"status\": \"{{worker}}\"}"),
                arguments("bytes as base64", "{\"token\": \"{{rand:3}}\"}"),
                arguments("nested", "{\"inner\": {\"name\": \"n\", \"deep\": {\"id\": \"{{seq}}\", \"codes\": [1, 2]}}}"),
                arguments("repeated element", "{\"tags\": [\"a\", \"t{{seq}}\", \"c\"]}"),
                arguments("repeated message", "{\"lines\": [{\"sku\": \"a\"}, {\"sku\": \"b\", \"quantity\": \"{{seq}}\"}]}"),
                arguments("map value", "{\"stock\": {\"a\": 1, \"b\": \"{{seq}}\"}}"),
                arguments("map of messages", "{\"by_sku\": {\"x\": {\"quantity\": 2}, \"y\": {\"sku\": \"y{{seq}}\"}}}"),
                arguments("timestamp", "{\"placed_at\": \"2024-05-01T10:00:00.{{seq}}Z\"}"),
                arguments("wrapper", "{\"limit\": \"{{time_us}}\"}"),
                arguments("struct", "{\"meta\": {\"k\": \"v{{seq}}\", \"list\": [1, \"{{conn}}\"]}}"),
                arguments("optional", "{\"maybe\": \"{{seq}}\"}"),
                arguments("everything at once", "{\"id\": \"{{seq}}\", \"count\": \"{{conn}}\", \"first_line\": "
                        + "{\"sku\": \"{{worker}}\"}, \"lines\": [{\"quantity\": \"{{seq}}\"}], \"stock\": {\"s\": \"{{seq}}\"}, "
                        + "\"placed_at\": \"2024-05-01T10:00:00.{{seq}}Z\", \"inner\": {\"deep\": {\"id\": \"{{conn}}\"}}}"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void placeholdersAnywhere(String name, String json) throws InvalidProtocolBufferException {
        RequestData data = RequestData.parse(json, ORDER, SEED);

        for (TestContext request : contexts().toList()) {
            assertEquals(filledIn(json, request), Order.parseFrom(data.payload(request)), name + " for " + request);
        }
    }

    /** What the JSON, its placeholders filled in for {@code request} first, parses as. */
    private static Order filledIn(String json, TestContext request) throws InvalidProtocolBufferException {
        ObjectNode expanded = (ObjectNode) JsonText.expand(JsonText.parseObject(json), SEED, request);
        Order.Builder order = Order.newBuilder();
        JsonFormat.parser().merge(expanded.toString(), order);
        return order.build();
    }

    @Test
    void placeholdersAreFilledInWhereTheyStand() throws InvalidProtocolBufferException {
        RequestData data = RequestData.parse("{\"id\": \"{{rand:4}}\", \"placed_at\": \"2024-05-01T10:00:00.{{seq}}Z\", "
                + "\"token\": \"{{rand:3}}\"}", ORDER, SEED);
        TestContext request = TestContext.of(5, 3);

        Order sent = Order.parseFrom(data.payload(request));

        assertEquals(Template.parse("{{rand:4}}", SEED).expandToString(request), sent.getId());
        assertEquals(8, sent.getId().length());
        assertEquals(Timestamp.newBuilder().setSeconds(1_714_557_600).setNanos(300_000_000).build(), sent.getPlacedAt());
        assertEquals(ByteString.copyFrom(Base64.getDecoder().decode(Template.parse("{{rand:3}}", SEED)
                .expandToString(request))), sent.getToken());
    }

    @Test
    void linesOfAFileAreUsedInTurnEachConnectionStartingOnItsOwn(@TempDir Path dir)
            throws InvalidProtocolBufferException {
        Path file = Protosets.write(dir, "requests.jsonl", ("{\"client_id\": 1}\n\n  \r\n{\"client_id\": 2, \"sequence\": "
                + "\"{{seq}}\"}\r\n{\"client_id\": 3}\n").getBytes(StandardCharsets.UTF_8));
        RequestData data = RequestData.parse("@" + file, BENCH, SEED);

        assertEquals(3, data.size());
        for (long seq = 0; seq < 7; seq++) {
            // Connection 9 starts on line 9 % 3 = 0; connection 10 on line 1.
            BenchMessage sent = BenchMessage.parseFrom(data.payload(TestContext.of(9, seq)));
            assertEquals(seq % 3 + 1, sent.getClientId(), "request " + seq);
            assertEquals(seq % 3 == 1 ? seq : 0, sent.getSequence(), "request " + seq);
            assertEquals((seq + 1) % 3 + 1, BenchMessage.parseFrom(data.payload(TestContext.of(10, seq))).getClientId(),
                    "connection 10's request " + seq);
        }
    }

    static Stream<Arguments> badData() {
        String placeholders = "(expected: {{seq}}, {{conn}}, {{worker}}, {{rand:N}} or {{time_us}})";
        return Stream.of(
                arguments("{\"foo\": 1}", "Cannot find field: foo in message ricochet.loadgen.test.Order"),
                arguments("{\"inner\": {\"deep\": {\"nope\": 1}}}", "Cannot find field: nope in message ricochet.loadgen.test.Deep"),
                arguments("{\"count\": \"abc\"}", "field count: Not an int64 value: \"abc\""),
                arguments("{\"inner\": {\"deep\": {\"id\": \"x\"}}}", "field inner.deep.id: Not an uint64 value: \"x\""),
                arguments("{\"lines\": [{}, {\"quantity\": \"z\"}]}", "field lines[1].quantity: Not an int32 value: \"z\""),
                arguments("{\"by_sku\": {\"a\": {\"quantity\": 1.5}}}", "field by_sku[\"a\"].quantity: Not an int32 value: 1.5"),
                arguments("{\"stock\": {\"a\": \"b\"}}", "field stock: Not an int64 value: \"b\""),
                arguments("{\"status\": \"NOPE\"}", "field status: Invalid enum value: NOPE for enum type: "
                        + "ricochet.loadgen.test.Order.Status"),
                arguments("{\"placed_at\": \"yesterday\"}", "field placed_at: Failed to parse timestamp: \"yesterday\""),
                arguments("{\"first_line\": 3}", "field first_line: Expect message object but got: 3"),
                // Checked with the placeholders filled in for a first request: a bytes field's "0" is no base64.
                arguments("{\"token\": \"{{seq}}\"}", "field token: Invalid input length 1"),
                arguments("{\"small\": \"-{{seq}}1\"}", "field small: Out of range uint32 value: \"-01\""),
                arguments("{\"id\": \"{{nope}}\"}", "{{nope}} names no placeholder " + placeholders),
                arguments("{\"id\": \"{{seq\"}", "an unclosed {{ at byte 0 " + placeholders.replace(")", ", closed by }})")),
                arguments("{\"{{seq}}\": 1}", "a placeholder in the key \"{{seq}}\" (expected: placeholders in string values only)"),
                arguments("{\"stock\": {\"{{seq}}\": 1}}", "a placeholder in the key \"{{seq}}\" (expected: placeholders in string values only)"),
                arguments("{\"id\": 1", "not JSON: Unexpected end-of-input: expected close marker for Object (start marker at "
                        + "line 1, column 1) at column 9"),
                arguments("{\"id\": 1, \"id\": 2}", "not JSON: Duplicate field 'id' at column 15"),
                arguments("{'id': 1}", "not JSON: Unexpected character (''' (code 39)): was expecting double-quote to start "
                        + "field name at column 2"),
                arguments("{} {}", "more than one JSON value at column 4 (expected: an object such as {\"id\": 1})"),
                arguments("[1, 2]", "not a JSON object: [1,2] (expected: an object such as {\"id\": 1})"),
                arguments(" ", "no JSON (expected: an object such as {\"id\": 1})"));
    }

    @ParameterizedTest
    @MethodSource
    void badData(String json, String expected) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RequestData.parse(json, ORDER, SEED));

        assertEquals(expected, e.getMessage());
    }

    @Test
    void aBadLineOfAFileIsNamed(@TempDir Path dir) {
        Path file = Protosets.write(dir, "requests.jsonl", "{\"client_id\": 1}\n\n{\"foo\": 2}\n".getBytes(StandardCharsets.UTF_8));

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RequestData.parse("@" + file, BENCH, SEED));

        assertEquals("line 3: Cannot find field: foo in message ricochet.bench.BenchMessage", e.getMessage());
    }

    static Stream<Arguments> badFiles() {
        return Stream.of(
                arguments("blank.jsonl", "\n  \n".getBytes(StandardCharsets.UTF_8), ": no JSON object (expected: one per line)"),
                arguments("latin1.jsonl", new byte[]{'{', '"', 'i', 'd', '"', ':', '"', (byte) 0xe9, '"', '}'}, ": not UTF-8 text"));
    }

    @ParameterizedTest
    @MethodSource
    void badFiles(String name, byte[] bytes, String expected, @TempDir Path dir) {
        Path file = Protosets.write(dir, name, bytes);

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RequestData.parse("@" + file, BENCH, SEED));

        assertEquals(file + expected, e.getMessage());
    }

    @Test
    void aMissingFile(@TempDir Path dir) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RequestData.parse("@" + dir.resolve("none.jsonl"), BENCH, SEED));

        assertEquals(dir.resolve("none.jsonl") + ": no such file", e.getMessage());
    }
}
