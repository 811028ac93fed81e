package dev.loomlab.app.contend;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A lock whose waiters busy-wait ({@link Thread#onSpinWait()}, never parking), as some third-party
 * libraries' lock-acquire loops do. A waiter keeps its thread, and on a virtual thread its
 * carrier, until it gets the lock or its time cap ends the wait.
 */
final class SpinLock {

    private final AtomicBoolean held = new AtomicBoolean();

    /**
     * Spins until the lock is taken or {@code maxSpinNanos} have passed.
     *
     * @return true when this caller now holds the lock
     */
    boolean acquire(long maxSpinNanos) {
        long start = System.nanoTime();
        // Test, then test-and-set: spinners read the flag and attempt the write only when it looks free.
        while (held.get() || !held.compareAndSet(false, true)) {
            if (System.nanoTime() - start >= maxSpinNanos) {
                return false;
            }
            Thread.onSpinWait();
        }
        return true;
    }

    void release() {
        held.set(false);
    }

    boolean isHeld() {
        return held.get();
    }
}
