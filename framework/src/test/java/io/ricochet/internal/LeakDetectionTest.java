package io.ricochet.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Netty reads the property once, when its detector loads, so changing it here leaves this JVM's detector as it is. */
class LeakDetectionTest {
    private String before;

    @BeforeEach
    void remember() {
        before = System.getProperty(LeakDetection.LEVEL_PROPERTY);
    }

    @AfterEach
    void restore() {
        if (before == null) {
            System.clearProperty(LeakDetection.LEVEL_PROPERTY);
        } else {
            System.setProperty(LeakDetection.LEVEL_PROPERTY, before);
        }
    }

    @Test
    void offWhenNotAsked() {
        System.clearProperty(LeakDetection.LEVEL_PROPERTY);
        LeakDetection.offUnlessAsked();
        assertEquals("disabled", System.getProperty(LeakDetection.LEVEL_PROPERTY));
    }

    @Test
    void aLevelGivenOnTheCommandLineStays() {
        System.setProperty(LeakDetection.LEVEL_PROPERTY, "paranoid");
        LeakDetection.offUnlessAsked();
        assertEquals("paranoid", System.getProperty(LeakDetection.LEVEL_PROPERTY));
    }
}
