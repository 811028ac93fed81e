package dev.loomlab.micro.ring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(30)
class TokenRingTest {

    /** Keeps every thread it makes, so a test can check that all of them ended. */
    private static final class RecordingFactory implements ThreadFactory {
        final List<Thread> made = new CopyOnWriteArrayList<>();
        final ThreadFactory delegate;

        RecordingFactory(boolean virtual) {
            delegate = virtual ? Thread.ofVirtual().factory() : Thread.ofPlatform().factory();
        }

        @Override
        public Thread newThread(Runnable task) {
            Thread thread = delegate.newThread(task);
            made.add(thread);
            return thread;
        }
    }

    @ParameterizedTest(name = "{0} workers, {1} passes, virtual={2}")
    @CsvSource({
            "7, 100, true", "7, 100, false",
            "5, 13, true", "5, 13, false",
            "503, 2000, true",
            "1, 50, true", "1, 50, false",
            "4, 0, true"})
    void tokenArrivesAfterExactlyTheAskedPassesAtTheExpectedWorker(int workers, long passes, boolean virtual)
            throws InterruptedException {
        TokenRing.Outcome outcome = new TokenRing(workers, passes, new RecordingFactory(virtual)).run();

        assertEquals(passes, outcome.passesMade(), "passes made");
        // Worker 0 holds the token first, so after M passes it is at worker M mod N.
        assertEquals(passes % workers, outcome.finisher(), "finishing worker");
    }

    @ParameterizedTest(name = "virtual={0}")
    @ValueSource(booleans = {true, false})
    void everyWorkerHasEndedWhenRunReturns(boolean virtual) throws InterruptedException {
        RecordingFactory threads = new RecordingFactory(virtual);

        new TokenRing(9, 1000, threads).run();

        assertEquals(9, threads.made.size());
        for (Thread thread : threads.made) {
            assertFalse(thread.isAlive(), thread + " still alive");
            assertEquals(virtual, thread.isVirtual());
        }
    }

    @Test
    void aThreadThatCannotStartFailsTheRunAndStopsTheStartedWorkers() throws InterruptedException {
        RecordingFactory real = new RecordingFactory(false);
        AtomicInteger made = new AtomicInteger();
        ThreadFactory failsOnTheFourth = task -> {
            if (made.incrementAndGet() == 4) {
                throw new OutOfMemoryError("unable to create native thread (simulated)");
            }
            return real.newThread(task);
        };

        assertThrows(OutOfMemoryError.class, () -> new TokenRing(6, 100, failsOnTheFourth).run());

        assertEquals(3, real.made.size());
        for (Thread thread : real.made) {
            thread.join(Duration.ofSeconds(5));
            assertFalse(thread.isAlive(), thread + " was left waiting for a token");
        }
    }

    @Test
    void rejectsRingsThatCannotExist() {
        ThreadFactory threads = Thread.ofVirtual().factory();
        assertThrows(IllegalArgumentException.class, () -> new TokenRing(0, 10, threads));
        assertThrows(IllegalArgumentException.class, () -> new TokenRing(3, -1, threads));
    }
}
