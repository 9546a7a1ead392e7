package io.ricochet.transport.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class HandshakeTurnsTest {
    private final List<String> granted = new ArrayList<>();

    @Test
    void aSourcePastItsTurnsWaitsInArrivalOrderAndAnotherSourceDoesNot() {
        HandshakeTurns turns = new HandshakeTurns(2);
        assertTrue(turns.take("a", waiter("a1")));
        assertTrue(turns.take("a", waiter("a2")));
        assertFalse(turns.take("a", waiter("a3")));
        assertFalse(turns.take("a", waiter("a4")));
        assertTrue(turns.take("b", waiter("b1")), "another source has turns of its own");
        assertEquals(3, turns.holding());
        assertEquals(2, turns.waiting());
        turns.release("a");
        turns.release("a");
        assertEquals(List.of("a3", "a4"), granted, "the oldest waiter first, each given the turn handed back");
        assertEquals(3, turns.holding());
        assertEquals(0, turns.waiting());
        turns.release("a");
        turns.release("a");
        turns.release("b");
        assertEquals(0, turns.holding());
        assertEquals(0, turns.sources(), "a source without turns keeps no entry");
        assertThrows(IllegalStateException.class, () -> turns.release("a"));
    }

    @Test
    void aWaiterThatLeavesIsNotGivenATurnAndOneGivenATurnCannotLeaveTheQueue() {
        HandshakeTurns turns = new HandshakeTurns(1);
        Runnable gone = waiter("gone");
        Runnable next = waiter("next");
        assertTrue(turns.take("a", waiter("first")));
        assertFalse(turns.take("a", gone));
        assertFalse(turns.take("a", next));
        assertTrue(turns.withdraw("a", gone));
        turns.release("a");
        assertEquals(List.of("next"), granted);
        assertFalse(turns.withdraw("a", next), "already given the turn: its holder must give it back");
        turns.release("a");
        assertEquals(0, turns.sources());
    }

    private Runnable waiter(String name) {
        return () -> granted.add(name);
    }
}
