package dev.loomlab.app.sleep;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How many requests sleep right now, and the most that ever slept at once: the server's own proof
 * of how many requests a mode runs concurrently, independent of how fast the client is.
 */
@ApplicationScoped
public class SleepGauge {

    private final AtomicInteger sleeping = new AtomicInteger();
    private final AtomicInteger peak = new AtomicInteger();

    void enter() {
        peak.accumulateAndGet(sleeping.incrementAndGet(), Math::max);
    }

    void leave() {
        sleeping.decrementAndGet();
    }

    public int sleeping() {
        return sleeping.get();
    }

    public int peak() {
        return peak.get();
    }
}
