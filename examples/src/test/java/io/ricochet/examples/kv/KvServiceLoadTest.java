package io.ricochet.examples.kv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.loadgen.api.LoadResult;
import io.ricochet.loadgen.api.LoadTest;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The KV service load-tested from a JUnit test, as a team tests its own service: its two front ends for a few seconds
 * each through the programmatic API, every value read back checked, and the build failing on a broken threshold.
 */
@Timeout(120)
class KvServiceLoadTest {
    private static KvServer server;

    @BeforeAll
    static void start() {
        server = KvServer.start(new KvServerConfig("127.0.0.1", 0, 0, 1_000_000));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void theTextProtocolHoldsItsThresholdsUnderLoad() throws Exception {
        LoadResult result = LoadTest.tcp(server.tcpAddress())
                .workload(new KvTextWorkload(100, 0.5))
                .connections(8).pipeline(4)
                .duration(Duration.ofSeconds(2))
                .threshold("bad==0").threshold("errors==0").threshold("p99<1s")
                .run();
        result.assertThresholds();
        assertTrue(result.ok() > 1_000, result.toString());
        assertEquals(result.requests(), result.ok(), "every reply checked, every value read back right");
    }

    /**
     * At a rate, latency counts from each call's intended send, so a 2-core machine busy with other builds can put p99
     * in seconds: the bound catches a stall (every call waiting out its deadline), it is not a speed target.
     */
    @Test
    void theRpcMethodsHoldTheirThresholdsAtARate() throws Exception {
        LoadResult result = LoadTest.rpc(server.rpcAddress())
                .workload(new KvRpcWorkload(100, 0.8))
                .clients(4).inFlight(4).requests(20_000).rate(10_000)
                .threshold("bad==0").threshold("errors==0").threshold("p99<10s")
                .run();
        result.assertThresholds();
        assertEquals(20_000, result.ok(), result.toString());
    }

    /** A threshold that cannot hold fails the test, with the figure that broke it. */
    @Test
    void aThresholdThatCannotHoldFailsTheTest() throws Exception {
        LoadResult result = LoadTest.tcp(server.tcpAddress()).workload(new KvTextWorkload(10, 0.5)).connections(1)
                .duration(Duration.ofMillis(500)).threshold("bad==0").threshold("qps>1G").run();
        AssertionError broken = assertThrows(AssertionError.class, result::assertThresholds);
        assertTrue(broken.getMessage().startsWith("threshold qps>1G: broken (qps = "), broken.getMessage());
        assertTrue(result.thresholds().get(0).passed(), "bad==0 held: " + result.thresholds().get(0).line());
    }
}
