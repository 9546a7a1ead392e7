package io.ricochet.loadgen.payload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.ricochet.loadgen.workload.Check;
import io.ricochet.loadgen.workload.FrameConversation;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class PayloadWorkloadTest {
    private static final long SEED = 11;
    /** Generated bodies: 64 bytes, as the throughput target is set for. */
    private static final String GENERATED = "generated";

    /** The workload of {@code payload} (a --payload value, or {@link #GENERATED}) and {@code expect}. */
    static PayloadWorkload workload(String payload, String expect) {
        Expectation expectation = Expectation.parse(expect, SEED);
        return payload.equals(GENERATED)
                ? PayloadWorkload.generated(SEED, 64, 64, expectation)
                : PayloadWorkload.of(Payloads.parse(payload, SEED), expectation);
    }

    static FrameConversation open(String payload, String expect) {
        return workload(payload, expect).open(FakeContext.request(0).opening());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "generated|reversed|reverse",
        "generated|echo|echo",
        "generated|any|=anything",
        "generated|length:64|echo",
        "generated|equals:value {{seq}}|=value 17",
        "generated|regex:^v\\d+$|=v17",
        "ping|reversed|reverse",
        "ping|echo|echo",
        "ping|any|=pong",
        "ping|equals:pong|=pong",
        "hex:00ff0a|reversed|reverse",
        "hex:00ff0a|equals:hex:0aff00|reverse",
        "get {{seq}}|reversed|reverse",
        "get {{seq}}|echo|echo",
        "get {{seq}}|length:6|echo",
        "get {{seq}}|equals:value {{seq}}|=value 17",
        "get {{seq}}|equals:{{conn}}/{{worker}}/{{seq}}|=3/2/17",
        "at {{time_us}}|echo|echo",
        "at {{time_us}}|equals:{{time_us}}|after:3",
        "k{{conn}} w{{worker}}|reversed|reverse",
        "k{{conn}} w{{worker}}|equals:v{{conn}}|=v3",
        "set {{rand:16}}|reversed|reverse",
        "set {{rand:16}}|echo|echo",
        "set {{seq}} {{rand:8}}|equals:{{rand:8}}|after:7",
        "get {{seq}}|regex:^value {{seq}}$|=value 17",
        "get {{seq}}|regex:value {{seq}}|=the value 17, not 18",
        "get {{seq}}|regex:(?i)^VALUE {{seq}}$|=value 17",
        "get|regex:value \\d+|=the value 17",
        "get|regex:^v{{conn}}-{{worker}}$|=v3-2",
        "get|regex:^é+ \\x{1F600}$|=éé 😀",
        "get|regex:^x{{seq}}+$|=x1777",
        "get|regex:(?<=v){{seq}}$|=v17",
    })
    void aReplyAsExpectedIsOk(String payload, String expect, String server) {
        Check check = Exchange.exchange(open(payload, expect), FakeContext.request(17), server);
        assertTrue(check.isOk(), check::toString);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "generated|reversed|reverse,flip:3|not the request reversed: 64 bytes, first difference at byte 3",
        "generated|reversed|=ERR unknown|not the request reversed: 11 bytes (expected: 64): \"ERR unknown\"",
        "generated|echo|echo,flip:63|not the request echoed: 64 bytes, first difference at byte 63",
        "generated|length:63|echo|64 bytes (expected: 63)",
        "ping|reversed|echo|not the request reversed: expected \"gnip\" (4 bytes), got \"ping\" (4 bytes)",
        "ping|echo|=pong|not the request echoed: expected \"ping\" (4 bytes), got \"pong\" (4 bytes)",
        "get {{seq}}|reversed|echo|not the request reversed: expected \"71 teg\" (6 bytes), got \"get 17\" (6 bytes)",
        "get {{seq}}|echo|=get 18|not the request echoed: expected \"get 17\" (6 bytes), got \"get 18\" (6 bytes)",
        "get {{seq}}|equals:value {{seq}}|=missing|expected \"value 17\" (8 bytes), got \"missing\" (7 bytes)",
        "get|equals:é|=e|expected \"é\" (2 bytes), got \"e\" (1 bytes)",
        "k{{conn}}|equals:v{{conn}}|=v4|expected \"v3\" (2 bytes), got \"v4\" (2 bytes)",
        "get|length:5|=missing|7 bytes (expected: 5)",
        "get|regex:value \\d+|=missing|\"missing\" does not match regex value \\d+",
        "get {{seq}}|regex:^value {{seq}}$|=value 16|\"value 16\" does not match regex ^value 17$",
        "get|regex:^v{{conn}}$|=v4|\"v4\" does not match regex ^v3$",
        "get|regex:^x{{seq}}+$|=x1717|\"x1717\" does not match regex ^x17+$",
    })
    void aWrongReplyIsBadAndSaysWhy(String payload, String expect, String server, String reason) {
        Check check = Exchange.exchange(open(payload, expect), FakeContext.request(17), server);
        assertFalse(check.isOk());
        assertEquals(reason, check.reason());
    }

    @Test
    void bytesThatDoNotPrintAreEscapedInTheReason() {
        FrameConversation text = open("get", "equals:value");
        assertEquals("expected \"value\" (5 bytes), got \"value\\n\" (6 bytes)",
                Exchange.exchange(text, FakeContext.request(1), "=value\n").reason());
        FrameConversation binary = open("get", "equals:hex:00ff0a22");
        assertEquals("expected \"\\x00\\xff\\n\\\"\" (4 bytes), got \"\\x01\\\"\\\\\\t\" (4 bytes)",
                Exchange.exchange(binary, FakeContext.request(1), "=\u0001\"\\\t").reason());
    }

    @Test
    void aLongReplyIsQuotedAroundItsFirstDifference() {
        String expected = "a".repeat(100) + "b" + "z".repeat(50);
        String got = "a".repeat(100) + "c" + "z".repeat(50);
        Check check = Exchange.exchange(open("get", "equals:" + expected), FakeContext.request(1), "=" + got);
        assertEquals("expected ...\"aaaaaaaaaabzzzzzzzzzzzzzzzzzzzzzzzzzzzzz\"... (151 bytes), "
                + "got ...\"aaaaaaaaaaczzzzzzzzzzzzzzzzzzzzzzzzzzzzz\"... (151 bytes), first difference at byte 100",
                check.reason());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "generated|reversed", "generated|echo", "get {{seq}} {{rand:4000}}|reversed", "get|equals:@LONG",
        "get|regex:^\\d+$", "get|length:3", "get {{seq}}|regex:^{{seq}}$",
    })
    void aReasonStaysShortAndPrintableWhateverTheReply(String payload, String expect) {
        byte[] garbage = new byte[70_000];
        for (int i = 0; i < garbage.length; i++) {
            garbage[i] = (byte) (i * 37);
        }
        String expectArg = expect.replace("@LONG", "hex:" + io.netty.buffer.ByteBufUtil.hexDump(garbage, 1, 20_000));
        FrameConversation conversation = open(payload, expectArg);
        FakeContext request = FakeContext.request(17);
        Exchange.request(conversation, request);
        String reason = Exchange.check(conversation, request, garbage).reason();
        assertTrue(reason.length() <= 200, reason.length() + ": " + reason);
        assertTrue(reason.chars().allMatch(c -> c >= 0x20 && c < 0x7f), reason);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "generated|reversed|reverse", "generated|echo|echo", "generated|equals:v{{seq}}|=v5",
        "get {{seq}} {{rand:8}}|reversed|reverse", "get {{seq}} {{rand:8}}|echo|echo", "ping|reversed|reverse",
        "get {{seq}}|equals:value {{seq}}|=value 5", "get|regex:^v{{seq}}$|=v5",
        "get|regex:^v{{seq}}+$|=v5", "get|length:3|=abc", "get|any|=x",
    })
    void aCheckChangesNothingSoALateReplyGetsTheSameVerdictAgain(String payload, String expect, String server) {
        // Over UDP, the engine checks a late reply against an older request after newer requests and checks.
        FrameConversation conversation = open(payload, expect);
        FakeContext five = FakeContext.request(5);
        byte[] reply = Exchange.serve(server, Exchange.request(conversation, five));
        byte[] spoiled = reply.clone();
        spoiled[0] ^= 1;
        Check first = Exchange.check(conversation, five, reply);
        Check firstBad = Exchange.check(conversation, five, spoiled);
        for (long seq = 6; seq < 9; seq++) {
            Exchange.exchange(conversation, FakeContext.request(seq), server);
        }
        assertEquals(first.toString(), Exchange.check(conversation, five, reply).toString());
        assertEquals(firstBad.toString(), Exchange.check(conversation, five, spoiled).toString());
    }

    @Test
    void requestsRegenerateTheirRandomBytesInTheCheckAndDifferBetweenRequests() {
        FrameConversation conversation = open("{{rand:32}}", "echo");
        byte[] five = Exchange.request(conversation, FakeContext.request(5));
        assertTrue(Exchange.check(conversation, FakeContext.request(5), five).isOk());
        assertFalse(Exchange.check(conversation, FakeContext.request(6), five).isOk(), "another request's bytes");
        assertNotEquals(new String(five, StandardCharsets.US_ASCII),
                new String(Exchange.request(conversation, FakeContext.request(6)), StandardCharsets.US_ASCII));
        FrameConversation other = open("{{rand:32}}", "echo");
        assertTrue(Exchange.check(other, FakeContext.request(5), five).isOk(), "another conversation regenerates it");
    }

    /** A reply in each kind of buffer the engine may hand over, heap, direct or split, short or long. */
    @ParameterizedTest
    @CsvSource({
        "heap, 5", "heap, 64", "heap, 2000", "direct, 5", "direct, 8", "direct, 64", "direct, 2000",
        "composite, 13", "composite, 64", "composite, 2000",
    })
    void repliesAreComparedInPlaceInAnyBuffer(String kind, int size) {
        String text = "x".repeat(size - 1) + "y";
        List<FrameConversation> conversations = List.of(open("ping", "equals:" + text),
                open("{{seq}}", "equals:" + text.substring(0, size - 1) + "{{seq}}".replace("{{seq}}", "y")),
                open(text.substring(0, size - 1) + "{{seq}}", "reversed"));
        byte[] reversedRequest = Exchange.serve("reverse", (text.substring(0, size - 1) + "9")
                .getBytes(StandardCharsets.US_ASCII));
        byte[][] replies = {text.getBytes(StandardCharsets.US_ASCII), text.getBytes(StandardCharsets.US_ASCII),
            reversedRequest};
        FakeContext request = FakeContext.request(9);
        for (int c = 0; c < conversations.size(); c++) {
            for (int spoil : new int[] {-1, 0, size / 2, size - 1}) {
                byte[] reply = replies[c].clone();
                if (spoil >= 0) {
                    reply[spoil] ^= 1;
                }
                ByteBuf buf = buffer(kind, reply);
                try {
                    Check check = conversations.get(c).check(request, buf);
                    assertEquals(spoil < 0, check.isOk(), kind + " " + size + " spoil " + spoil + ": " + check);
                } finally {
                    buf.release();
                }
            }
        }
    }

    private static ByteBuf buffer(String kind, byte[] bytes) {
        switch (kind) {
            case "heap":
                return Unpooled.buffer(bytes.length + 2).writeByte(0).writeBytes(bytes).skipBytes(1);
            case "direct":
                return PooledByteBufAllocator.DEFAULT.directBuffer(bytes.length + 2).writeByte(0).writeBytes(bytes)
                        .skipBytes(1);
            default:
                CompositeByteBuf split = Unpooled.compositeBuffer();
                int half = bytes.length / 2;
                split.addComponents(true, Unpooled.wrappedBuffer(bytes, 0, half),
                        PooledByteBufAllocator.DEFAULT.directBuffer().writeBytes(bytes, half, bytes.length - half));
                return split;
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "generated|reversed|reverse", "generated|echo|echo", "generated|length:64|echo", "generated|any|=x",
        "ping|reversed|reverse", "ping|equals:pong|=pong", "get {{seq}}|reversed|reverse", "get {{seq}}|echo|echo",
        "get {{seq}} {{rand:12}}|reversed|reverse", "at {{time_us}}|echo|echo",
        "get {{seq}}|equals:value {{seq}}|=value 17", "k{{conn}}|equals:v{{conn}}|=v3",
        "get|regex:^value \\d+$|=value 17", "get|regex:^v{{conn}}$|=v3", "get {{seq}}|regex:^value {{seq}}$|=value 17",
        "get|regex:^é$|=é",
    })
    void aGoodReplyAllocatesNothing(String payload, String expect, String server) {
        // Every request of a run goes through here: at a million a second, even a small object each is garbage the
        // generator's cores must collect. Interpreted or compiled, no path may allocate for a good reply.
        FrameConversation conversation = open(payload, expect);
        UnpooledByteBufAllocator untracked = new UnpooledByteBufAllocator(true, true);
        int n = 500;
        List<ByteBuf> replies = new ArrayList<>();
        ByteBuf body = untracked.directBuffer(256);
        try {
            FakeContext request = FakeContext.request(17);
            for (int i = 0; i < n; i++) {
                request.sequence = 17 + i;
                byte[] reply = Exchange.serve(server.replace("17", Long.toString(17 + i)),
                        Exchange.request(conversation, request));
                replies.add(untracked.directBuffer(reply.length).writeBytes(reply));
            }
            com.sun.management.ThreadMXBean threads =
                    (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
            long thread = Thread.currentThread().getId();
            long probe = -threads.getThreadAllocatedBytes(thread) + threads.getThreadAllocatedBytes(thread);
            long[] allocated = new long[6];
            for (int round = 0; round < allocated.length; round++) {
                long before = threads.getThreadAllocatedBytes(thread);
                for (int i = 0; i < n; i++) {
                    request.sequence = 17 + i;
                    body.clear();
                    conversation.request(request, body);
                    if (!conversation.check(request, replies.get(i)).isOk()) {
                        throw new AssertionError("request " + request.sequence + " was bad");
                    }
                }
                allocated[round] = threads.getThreadAllocatedBytes(thread) - before - probe;
            }
            // The first round may load classes and link call sites, and a compilation can allocate once in any round
            // (a deoptimisation materialises objects): an allocation per request would show in every round.
            long least = java.util.Arrays.stream(allocated, 1, allocated.length).min().getAsLong();
            assertTrue(least < n, "allocated " + java.util.Arrays.toString(allocated) + " bytes in rounds of " + n
                    + " requests");
        } finally {
            body.release();
            replies.forEach(ByteBuf::release);
        }
    }

    @Test
    void itSaysHowLongItsRequestsGetAndWhatAConnectionCosts() {
        assertEquals(1024, PayloadWorkload.generated(SEED, 16, 1024, Expectation.reversed()).maxBodyLength());
        assertEquals(OptionalLong.empty(), workload(GENERATED, "reversed").bytesPerConnection());
        assertEquals(OptionalLong.empty(), workload("ping", "echo").bytesPerConnection());
        PayloadWorkload big = workload("{{rand:10000}}", "echo");
        assertEquals(20_000, big.maxBodyLength());
        // The request's scratch, and what the reply is compared with: up to 16 requests kept and one expanded again.
        assertEquals(OptionalLong.of(20_000 + 17 * 20_000), big.bytesPerConnection());
        assertEquals("generated 64..64 bytes, expect reversed", workload(GENERATED, "reversed").toString());
        assertEquals("template of up to 24 bytes, expect equals:v {{seq}}",
                workload("get {{seq}}", "equals:v {{seq}}").toString());
    }

    @Test
    void anEmptyPayloadIsRefused() {
        assertEquals("payload: empty (expected: at least one byte; frames are never empty)", assertThrows(
                IllegalArgumentException.class, () -> PayloadWorkload.of(Template.literalOf(new byte[0]),
                        Expectation.reversed())).getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"^(a|b)*c$", "^(?:a|b)*c$"})
    void aRegexThatOverflowsTheStackIsAnErrorOfTheRequest(String re) {
        FrameConversation conversation = open("get", "regex:" + re);
        byte[] reply = "a".repeat(1 << 20).getBytes(StandardCharsets.US_ASCII);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> Exchange.check(conversation, FakeContext.request(1), reply));
        assertEquals("regex " + re + " overflowed the stack on a 1048576-byte reply", e.getMessage());
    }
}
