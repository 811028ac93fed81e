package dev.loomlab.virtualpool;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/** The counters behind {@link VirtualThreadPoolMXBean}; cheap enough for every request. */
final class PoolMetrics {

    private final LongAdder started = new LongAdder();
    private final LongAdder completed = new LongAdder();
    private final LongAdder rejected = new LongAdder();
    private final AtomicInteger active = new AtomicInteger();
    private final AtomicInteger peakActive = new AtomicInteger();
    private final AtomicInteger waiting = new AtomicInteger();

    void accepted() {
        started.increment();
    }

    void rejected() {
        rejected.increment();
    }

    /** An accepted task whose thread could not start: it counts as rejected only, never as started. */
    void startFailed() {
        started.decrement();
        rejected.increment();
    }

    void waitingBegins() {
        waiting.incrementAndGet();
    }

    void waitingEnds() {
        waiting.decrementAndGet();
    }

    void runs() {
        int now = active.incrementAndGet();
        int peak;
        while (now > (peak = peakActive.get()) && !peakActive.compareAndSet(peak, now)) {
            // another task raised the peak first; read it again
        }
    }

    void finishes() {
        active.decrementAndGet();
    }

    /** A task that never ran (drained by shutdownNow) still counts as completed. */
    void completes() {
        completed.increment();
    }

    long started() {
        return started.sum();
    }

    long completed() {
        return completed.sum();
    }

    long rejectedCount() {
        return rejected.sum();
    }

    int active() {
        return active.get();
    }

    int peakActive() {
        return peakActive.get();
    }

    int waiting() {
        return waiting.get();
    }

    void resetPeak() {
        peakActive.set(active.get());
    }
}
