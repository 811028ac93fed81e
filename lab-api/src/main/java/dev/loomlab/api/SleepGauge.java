package dev.loomlab.api;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * How many requests sleep right now, and the most that ever slept at once: the server's own proof
 * of how many requests it runs concurrently, independent of how fast the client is. One per
 * server, shared by its sleep endpoint (enter, leave) and its {@code /api/info} ("sleeping").
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
