package io.ricochet.loadgen.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class WorkloadParametersTest {

    @Test
    void valuesAreReadWithTheirDefaultsAndWhatWasNeverReadIsKnown() {
        WorkloadParameters p = WorkloadParameters.of(Map.of("keys", "10", "get-share", "0.25", "typo", "x"));
        assertEquals(10, p.intValue("keys", 100, 1, 1_000));
        assertEquals(0.25, p.doubleValue("get-share", 0.5, 0, 1));
        assertEquals(7L, p.longValue("absent", 7));
        assertEquals(true, p.booleanValue("also-absent", true));
        assertEquals(Set.of("typo"), p.unread());
        assertEquals(List.of("keys", "get-share", "absent", "also-absent"), List.copyOf(p.asked()),
                "the parameters it takes, in the order it asked");
    }

    @Test
    void aValueOutOfItsRangeOrOfAnotherFormIsNamedWithItsValue() {
        WorkloadParameters p = WorkloadParameters.of(Map.of("keys", "0", "share", "1.5", "n", "many", "flag", "maybe"));
        assertEquals("keys: 0 (expected: 1..100000)",
                assertThrows(IllegalArgumentException.class, () -> p.intValue("keys", 1, 1, 100_000)).getMessage());
        assertEquals("share: 1.5 (expected: 0..1)",
                assertThrows(IllegalArgumentException.class, () -> p.doubleValue("share", 0, 0, 1)).getMessage());
        assertEquals("n: many (expected: an integer)",
                assertThrows(IllegalArgumentException.class, () -> p.intValue("n", 1)).getMessage());
        assertEquals("flag: maybe (expected: true or false)",
                assertThrows(IllegalArgumentException.class, () -> p.booleanValue("flag", false)).getMessage());
    }
}
