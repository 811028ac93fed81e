package dev.loomlab.virtualpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PoolLifecycleTest {

    private final PoolLifecycle lifecycle = new PoolLifecycle();

    @Test
    void shutdownWithNothingInFlightTerminatesAndRefusesEveryLaterTask() {
        assertTrue(lifecycle.shutdown(), "nothing in flight: terminated at once");
        assertFalse(lifecycle.tryEnter());
        assertTrue(lifecycle.isTerminated(), "a refused task leaves the pool terminated");
        assertFalse(lifecycle.shutdown(), "terminated only once");
    }

    @Test
    void theLastTaskOutAfterShutdownTerminatesThePool() {
        assertTrue(lifecycle.tryEnter());
        assertTrue(lifecycle.tryEnter());
        assertFalse(lifecycle.shutdown());
        assertTrue(lifecycle.isShutdown());
        assertFalse(lifecycle.tryEnter(), "no task enters after shutdown");
        assertEquals(2, lifecycle.inFlight());
        assertFalse(lifecycle.exit());
        assertFalse(lifecycle.isTerminated());
        assertTrue(lifecycle.exit(), "the last one out");
        assertTrue(lifecycle.isTerminated());
    }

    @Test
    void tasksEndingBeforeShutdownDoNotTerminate() {
        assertTrue(lifecycle.tryEnter());
        assertFalse(lifecycle.exit());
        assertFalse(lifecycle.isShutdown());
        assertFalse(lifecycle.isTerminated());
    }
}
