package dev.loomlab.cargotracker.it;

import java.time.Duration;
import java.util.function.Supplier;

/** Waits for asynchronous effects (inspection after handling, SSE events) instead of sleeping blindly. */
final class Await {

    private Await() {
    }

    /** Polls {@code probe} until it returns true; fails with {@code what} and the last value after {@code timeout}. */
    static void until(String what, Duration timeout, Supplier<Boolean> probe) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            if (Boolean.TRUE.equals(probe.get())) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout.toSeconds() + " s waiting for: " + what);
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for: " + what, e);
            }
        }
    }
}
