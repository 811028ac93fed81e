package dev.loomlab.virtualpool;

import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Decides how many tasks may run at once and how many may wait.
 * <p>
 * {@link #tryReserve()} runs on Grizzly's selector thread and never blocks; {@link #acquire}
 * runs on the task's own virtual thread, so waiting for a permit parks a virtual thread instead
 * of stalling the selector.
 */
abstract sealed class Admission {

    private static final Admission UNLIMITED = new Unlimited();

    static Admission unlimited() {
        return UNLIMITED;
    }

    /**
     * @param maxConcurrent tasks running at once, at least 1
     * @param maxWaiting    tasks waiting for a permit; negative for no limit
     */
    static Admission bounded(int maxConcurrent, int maxWaiting) {
        return new Bounded(maxConcurrent, maxWaiting);
    }

    /** Claims a place (running or waiting) for a new task; false when the pool is full. */
    abstract boolean tryReserve();

    /** Gives a place back that {@link #tryReserve()} claimed but no task used. */
    abstract void cancel();

    /** Blocks the calling virtual thread until the task may run. */
    abstract void acquire(PoolMetrics metrics) throws InterruptedException;

    /** Ends a task that {@link #acquire} let run. */
    abstract void release();

    abstract int maxConcurrent();

    abstract int maxWaiting();

    private static final class Unlimited extends Admission {
        @Override boolean tryReserve() { return true; }
        @Override void cancel() { }
        @Override void acquire(PoolMetrics metrics) { }
        @Override void release() { }
        @Override int maxConcurrent() { return -1; }
        @Override int maxWaiting() { return -1; }
    }

    private static final class Bounded extends Admission {
        private final int maxConcurrent;
        private final int maxWaiting;
        private final long capacity;
        // Fair, so that requests that waited longest run first: latency, not just throughput.
        private final Semaphore permits;
        private final AtomicInteger admitted = new AtomicInteger();

        Bounded(int maxConcurrent, int maxWaiting) {
            if (maxConcurrent < 1) {
                throw new IllegalArgumentException("maxConcurrent must be at least 1, was " + maxConcurrent);
            }
            this.maxConcurrent = maxConcurrent;
            this.maxWaiting = maxWaiting < 0 ? -1 : maxWaiting;
            this.capacity = maxWaiting < 0 ? Integer.MAX_VALUE : Math.min(Integer.MAX_VALUE, (long) maxConcurrent + maxWaiting);
            this.permits = new Semaphore(maxConcurrent, true);
        }

        @Override
        boolean tryReserve() {
            int now;
            do {
                now = admitted.get();
                if (now >= capacity) {
                    return false;
                }
            } while (!admitted.compareAndSet(now, now + 1));
            return true;
        }

        @Override
        void cancel() {
            admitted.decrementAndGet();
        }

        @Override
        void acquire(PoolMetrics metrics) throws InterruptedException {
            // The timed form honours fairness; a plain tryAcquire() would overtake the waiters.
            if (permits.tryAcquire(0, TimeUnit.NANOSECONDS)) {
                return;
            }
            metrics.waitingBegins();
            try {
                permits.acquire();
            } finally {
                metrics.waitingEnds();
            }
        }

        @Override
        void release() {
            permits.release();
            admitted.decrementAndGet();
        }

        @Override int maxConcurrent() { return maxConcurrent; }
        @Override int maxWaiting() { return maxWaiting; }
    }
}
