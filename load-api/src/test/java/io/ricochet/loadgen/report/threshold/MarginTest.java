package io.ricochet.loadgen.report.threshold;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class MarginTest {
    private static JsonNode json(String text) throws Exception {
        return new ObjectMapper().readTree(text);
    }

    @Test
    void aMarginIsASignedShareOfTheBaselinesFigure() throws Exception {
        JsonNode base = json("{\"qps\": 1000, \"latency_us\": {\"p99\": 1000}}");
        assertTrue(Margin.parse("p99>+10%").check(base, json("{\"latency_us\": {\"p99\": 1100}}")).passed(),
                "exactly at the limit holds");
        assertFalse(Margin.parse("p99>+10%").check(base, json("{\"latency_us\": {\"p99\": 1101}}")).passed());
        assertTrue(Margin.parse("qps<-5%").check(base, json("{\"qps\": 950}")).passed());
        assertFalse(Margin.parse("qps<-5%").check(base, json("{\"qps\": 949}")).passed());
        // A controller's summary is judged on its merged run.
        assertFalse(Margin.parse("qps<-5%").check(base, json("{\"merged\": {\"qps\": 900}}")).passed());
        assertEquals("fail-if qps<-5%: broken (qps 1000 -> 900, -10.0%)",
                Margin.parse("qps<-5%").check(base, json("{\"qps\": 900}")).line());
    }

    @Test
    void aBadMarginNamesWhatIsWrong() {
        assertEquals("fail-if: 'p99>10%' (expected METRIC>+N% or METRIC<-N%, e.g. p99>+10%, qps<-5%)",
                assertThrows(IllegalArgumentException.class, () -> Margin.parse("p99>10%")).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Margin.parse("p98>+10%")).getMessage()
                .startsWith("fail-if: 'p98>+10%': unknown metric p98 (expected one of "));
        assertThrows(IllegalArgumentException.class, () -> Margin.parse("p99==+10%"));
    }
}
