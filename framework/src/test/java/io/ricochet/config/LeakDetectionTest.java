package io.ricochet.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Netty reads the property once, when its detector loads, so changing it here leaves this JVM's detector as it is. */
class LeakDetectionTest {
    private static final String OLD_NAME = "io.netty.leakDetectionLevel";
    private static final List<String> NAMES = List.of(LeakDetection.LEVEL_PROPERTY, OLD_NAME);
    private final Map<String, String> before = new HashMap<>();

    @BeforeEach
    void rememberAndClear() {
        for (String name : NAMES) {
            before.put(name, System.getProperty(name));
            System.clearProperty(name);
        }
    }

    @AfterEach
    void restore() {
        for (String name : NAMES) {
            if (before.get(name) == null) {
                System.clearProperty(name);
            } else {
                System.setProperty(name, before.get(name));
            }
        }
    }

    @Test
    void offWhenNotAsked() {
        LeakDetection.offUnlessAsked();
        assertEquals("disabled", System.getProperty(LeakDetection.LEVEL_PROPERTY));
    }

    @Test
    void aLevelGivenOnTheCommandLineStays() {
        System.setProperty(LeakDetection.LEVEL_PROPERTY, "paranoid");
        LeakDetection.offUnlessAsked();
        assertEquals("paranoid", System.getProperty(LeakDetection.LEVEL_PROPERTY));
    }

    @Test
    void aLevelGivenUnderTheOldNameStays() {
        System.setProperty(OLD_NAME, "paranoid");
        LeakDetection.offUnlessAsked();
        assertNull(System.getProperty(LeakDetection.LEVEL_PROPERTY), "the new name would override the old");
        assertEquals("paranoid", System.getProperty(OLD_NAME));
    }
}
