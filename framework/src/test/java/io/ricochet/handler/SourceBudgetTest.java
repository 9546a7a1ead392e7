package io.ricochet.handler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SourceBudgetTest {
    @Test
    void eachSourceHoldsAtMostItsPlacesAndKeepsNoEntryWithoutOne() {
        SourceBudget budget = new SourceBudget(2);
        assertTrue(budget.tryAcquire("a"));
        assertTrue(budget.tryAcquire("a"));
        assertFalse(budget.tryAcquire("a"), "a third place for one source");
        assertTrue(budget.tryAcquire("b"), "another source has its own");
        assertEquals(2, budget.sources());
        budget.release("a");
        assertTrue(budget.tryAcquire("a"), "a place given back is free again");
        budget.release("a");
        budget.release("a");
        budget.release("b");
        assertEquals(0, budget.sources(), "a source without places keeps no entry");
        assertThrows(IllegalStateException.class, () -> budget.release("a"));
    }

    @Test
    void theLimitIsChecked() {
        assertThrows(IllegalArgumentException.class, () -> new SourceBudget(0));
    }
}
