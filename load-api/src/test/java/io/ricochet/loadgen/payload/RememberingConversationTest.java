package io.ricochet.loadgen.payload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.loadgen.workload.Check;
import io.ricochet.loadgen.workload.FrameConversation;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A templated payload checked against what was sent: at any pipeline depth, shallower or deeper than the requests it
 * keeps, every reply is matched to its own request, and a late check of an old request (UDP's) still gets its verdict.
 */
class RememberingConversationTest {

    private static FrameConversation conversation(String expect) {
        return PayloadWorkload.of(Payloads.parse("get {{seq}}-{{rand:6}}", 7), Expectation.parse(expect, 7))
                .open(FakeContext.request(0).opening());
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 16, 40})
    void everyReplyIsCheckedAgainstItsOwnRequestAtAnyDepth(int depth) {
        for (String expect : List.of("reversed", "echo")) {
            FrameConversation c = conversation(expect);
            String server = expect.equals("reversed") ? "reverse" : "echo";
            List<byte[]> inFlight = new ArrayList<>();
            long next = 0;
            for (long answered = 0; answered < 200; answered++) {
                while (next < answered + depth) {
                    inFlight.add(Exchange.serve(server, Exchange.request(c, FakeContext.request(next++))));
                }
                Check ok = Exchange.check(c, FakeContext.request(answered), inFlight.remove(0));
                assertTrue(ok.isOk(), expect + " at depth " + depth + ", request " + answered + ": " + ok);
            }
            // A reply to an earlier request, shown as the latest's, is bad: the check is against what each sent.
            byte[] older = Exchange.serve(server, Exchange.request(c, FakeContext.request(next)));
            Exchange.request(c, FakeContext.request(next + 1));
            Check bad = Exchange.check(c, FakeContext.request(next + 1), older);
            assertTrue(bad.reason().startsWith("not the request " + (expect.equals("reversed") ? "reversed" : "echoed")
                    + ": "), bad.reason());
            // Late, as over UDP: request 3 long gone from the ring, its reply still checks right, and again.
            byte[] three = Exchange.serve(server, Exchange.request(conversation(expect), FakeContext.request(3)));
            assertEquals(Check.ok(), Exchange.check(c, FakeContext.request(3), three));
            assertEquals(Check.ok(), Exchange.check(c, FakeContext.request(3), three));
        }
    }
}
