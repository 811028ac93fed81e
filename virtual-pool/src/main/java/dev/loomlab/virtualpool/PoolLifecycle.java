package dev.loomlab.virtualpool;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The shutdown flag and the count of tasks in flight in one atomic word, so that accepting a task
 * and shutting down cannot interleave: no task enters once the pool is shut down, and once the
 * count has reached zero after shutdown the pool stays terminated.
 */
final class PoolLifecycle {

    private static final long SHUT_DOWN = 1L << 62;

    private final AtomicLong state = new AtomicLong();

    /** Counts a new task in flight; false (and nothing counted) once the pool is shut down. */
    boolean tryEnter() {
        long now;
        do {
            now = state.get();
            if ((now & SHUT_DOWN) != 0) {
                return false;
            }
        } while (!state.compareAndSet(now, now + 1));
        return true;
    }

    /** Ends a task in flight; true if this made the pool terminated. */
    boolean exit() {
        return state.decrementAndGet() == SHUT_DOWN;
    }

    /** Marks the pool shut down; true if this made it terminated (nothing was in flight). */
    boolean shutdown() {
        long before = state.getAndUpdate(now -> now | SHUT_DOWN);
        return before == 0;
    }

    boolean isShutdown() {
        return (state.get() & SHUT_DOWN) != 0;
    }

    boolean isTerminated() {
        return state.get() == SHUT_DOWN;
    }

    int inFlight() {
        return (int) (state.get() & ~SHUT_DOWN);
    }
}
