package dev.loomlab.baselines.api;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * How many requests sleep right now, and the most that ever slept at once (as the WAR's gauge):
 * the server's own count of how many requests it really runs concurrently.
 */
public final class SleepGauge {

    private final AtomicInteger sleeping = new AtomicInteger();
    private final AtomicInteger peak = new AtomicInteger();

    public void enter() {
        peak.accumulateAndGet(sleeping.incrementAndGet(), Math::max);
    }

    public void leave() {
        sleeping.decrementAndGet();
    }

    public int sleeping() {
        return sleeping.get();
    }

    public int peak() {
        return peak.get();
    }
}
