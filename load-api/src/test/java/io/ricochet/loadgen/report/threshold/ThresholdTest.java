package io.ricochet.loadgen.report.threshold;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.ricochet.loadgen.report.ReportWriter;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class ThresholdTest {
    private static final JsonNode RUN = json("{\"requests\":1000,\"ok\":990,\"errors\":10,\"bad\":0,\"qps\":150000.5,"
            + "\"latency_us\":{\"p50\":120,\"p99\":1800,\"max\":9000}}");

    private static JsonNode json(String text) {
        try {
            return ReportWriter.JSON.readTree(text);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @ParameterizedTest
    @CsvSource({
        "p99<2ms, true", "p99<1.8ms, false", "p99<=1.8ms, true", "p99>1800, false", "p99>=1800us, true",
        "errors==10, true", "errors==0, false", "bad!=0, false", "bad!=1, true", "qps>100k, true", "qps>0.2M, false",
        "qps>100000/s, true", "qps>1.5K, true", "qps<0.001G, true", "errors<1.5k, true", "error_rate<=1%, true", "error_rate<0.01, false", "max<9s, true", "ok>=990, true"})
    void eachOperatorAndUnit(String expression, boolean passes) {
        assertEquals(passes, Threshold.parse(expression).check(RUN).passed(), expression);
    }

    @Test
    void aDistributedRunIsCheckedOnItsMergedSummary() {
        JsonNode distributed = json("{\"merged\":{\"errors\":0},\"workers\":2}");
        assertTrue(Threshold.parse("errors==0").check(distributed).passed());
    }

    @Test
    void anRpcRunsOkIsItsReceivedOk() {
        assertTrue(Threshold.parse("ok==5").check(json("{\"received_ok\":5}")).passed());
    }

    @Test
    void aFigureTheCommandDoesNotMeasureBreaksTheThresholdAndSaysSo() {
        Threshold.Result r = Threshold.parse("loss<1%").check(RUN);
        assertFalse(r.passed());
        assertNull(r.actual());
        assertEquals("threshold loss<1%: broken (not measured by this command)", r.line());
    }

    @Test
    void theLineGivesTheActualFigure() {
        assertEquals("threshold p99<1ms: broken (p99 = 1800)", Threshold.parse("p99<1ms").check(RUN).line());
    }

    @ParameterizedTest
    @ValueSource(strings = {"p99", "p99<", "<2ms", "p99=2ms", "p98<2ms", "p99<2kb", "errors<2ms", "loss<1k", "qps>>1"})
    void aBadExpressionIsRefusedByName(String expression) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Threshold.parse(expression));
        assertTrue(e.getMessage().contains("'" + expression + "'"), e.getMessage());
    }

    @Test
    void aWindowAbortAndDelayAreParsedAndTheExpressionKeptAsWritten() {
        Threshold t = Threshold.parse("p99[30s]<5ms;abort;delay=1m");
        assertEquals(java.time.Duration.ofSeconds(30), t.window());
        assertTrue(t.abort());
        assertEquals(java.time.Duration.ofMinutes(1), t.delay());
        assertEquals(5_000, t.value());
        assertEquals("p99[30s]<5ms;abort;delay=1m", t.expression());
        Threshold plain = Threshold.parse("errors==0");
        assertFalse(plain.windowed());
        assertFalse(plain.abort());
        assertEquals(java.time.Duration.ZERO, plain.delay());
    }

    @ParameterizedTest
    @ValueSource(strings = {"p99[]<5ms", "p99[0s]<5ms", "p99[-1s]<5ms", "p99[soon]<5ms", "p99<5ms;abort;abort",
        "p99<5ms;delay=1s", "p99<5ms;abort;delay=-1s", "p99<5ms;stop", "p99<5ms;", "p99[1s<5ms"})
    void aBadWindowOrOptionIsRefusedByName(String expression) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Threshold.parse(expression));
        assertTrue(e.getMessage().startsWith("threshold: '" + expression + "'"), e.getMessage());
    }

    @Test
    void aTotalOfARunThatLostAWorkerBreaksRatherThanPassOnTheSmallerLoad() {
        JsonNode lost = json("{\"merged\":{\"requests\":500,\"qps\":100,\"latency_us\":{\"p99\":100}},"
                + "\"workers\":3,\"workers_lost\":1}");
        Threshold.Result total = Threshold.parse("requests>10").check(lost);
        assertFalse(total.passed());
        assertEquals("threshold requests>10: broken (requests = 500; 1 of 3 workers lost, so this total is of a smaller "
                + "load)", total.line());
        assertTrue(Threshold.parse("p99<1ms").check(lost).passed(), "a percentile is not a total");
    }

    @ParameterizedTest
    @CsvSource({"p99<5ms, true", "errors<100, true", "bad==0, true", "error_rate<1%, true", "requests>1M, false",
        "ok>=500k, false", "qps>19.5k, false", "qps<1M, false", "requests==1000, false", "qps[30s]>19.5k, true",
        "requests[1m]>1k, true"})
    void aFloorOnATotalOrAnyRateIsJudgedAtTheEndOnlyWithoutAWindow(String expression, boolean live) {
        assertEquals(live, Threshold.parse(expression).judgedLive(), expression);
    }

    @Test
    void anAbortOnWhatIsOnlyKnownAtTheEndIsRefusedAndAWindowSuggested() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Threshold.parse("qps>19.5k;abort"));
        assertTrue(e.getMessage().contains("abort on qps without a window (expected a window, such as qps[30s]"),
                e.getMessage());
        assertTrue(Threshold.parse("qps[30s]>19.5k;abort").abort());
    }
}
