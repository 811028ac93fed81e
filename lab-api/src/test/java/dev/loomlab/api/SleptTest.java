package dev.loomlab.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The one blocking sleep handler: it sleeps at the depth asked, on the calling thread, counted while it blocks. */
class SleptTest {

    @Test
    void sleepsAtTheDepthAskedAndSaysWhichThreadSlept() throws InterruptedException {
        SleepGauge gauge = new SleepGauge();
        long began = System.nanoTime();
        Slept slept = Slept.block(new SleepRequest(30, 30, 50), gauge);
        assertTrue(System.nanoTime() - began >= 30_000_000L, "returned before its 30 ms");
        assertEquals(new Slept(false, Thread.currentThread().getName(), 30, 50), slept);
        assertEquals(0, gauge.sleeping());
        assertEquals(1, gauge.peak());
    }

    @Test
    void countsASleeperOnAVirtualThreadAndSaysItWasVirtual() throws Exception {
        SleepGauge gauge = new SleepGauge();
        AtomicReference<Slept> answer = new AtomicReference<>();
        Thread sleeper = Thread.ofVirtual().name("sleeper").start(() -> {
            try {
                answer.set(Slept.block(new SleepRequest(20, 20, 0), gauge));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        sleeper.join();
        assertEquals(1, gauge.peak(), "the sleeper was counted while it blocked");
        assertEquals(0, gauge.sleeping(), "and no longer once it answered");
        assertTrue(answer.get().virtual());
        assertEquals("sleeper", answer.get().thread());
    }
}
