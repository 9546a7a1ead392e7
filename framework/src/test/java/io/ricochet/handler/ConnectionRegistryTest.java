package io.ricochet.handler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.embedded.EmbeddedChannel;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ConnectionRegistryTest {

    /** A stop once took its snapshot while children still being set up were admitted after it, and never drained. */
    @Test
    void afterCloseNothingIsAdmittedAndTheSnapshotHoldsEveryoneAdmittedBefore() {
        ConnectionBudget shared = new ConnectionBudget(10);
        ConnectionRegistry registry = new ConnectionRegistry(5, shared);
        EmbeddedChannel before = new EmbeddedChannel();
        EmbeddedChannel after = new EmbeddedChannel();
        assertTrue(registry.admit(before));

        Set<io.netty.channel.Channel> snapshot = registry.close();

        assertEquals(Set.of(before), snapshot);
        assertTrue(registry.isClosed());
        assertFalse(registry.admit(after), "admitted after the close");
        assertEquals(1, registry.active(), "a refused channel holds no place");
        assertEquals(1, shared.held(), "nor a place in the shared budget");
        before.close();
        assertEquals(0, registry.active());
        assertEquals(0, shared.held());
        after.close();
    }
}
