package dev.loomlab.cargotracker.it;

import java.time.Duration;
import java.util.function.Supplier;

/** Waits for asynchronous effects (inspection after handling, SSE events) instead of sleeping blindly. */
final class Await {

    private Await() {
    }

    /** Polls {@code probe} until it returns true; fails with {@code what} after {@code timeout}. */
    static void until(String what, Duration timeout, Supplier<Boolean> probe) {
        until(what, timeout, probe, () -> "");
    }

    /**
     * Polls {@code probe} until it returns true; after {@code timeout} fails with {@code what} and what
     * {@code lastSeen} says then (the state the probe kept finding), so a failure shows how far things got.
     */
    static void until(String what, Duration timeout, Supplier<Boolean> probe, Supplier<String> lastSeen) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            if (Boolean.TRUE.equals(probe.get())) {
                return;
            }
            if (System.nanoTime() > deadline) {
                String seen = lastSeen.get();
                throw new AssertionError("timed out after " + timeout.toSeconds() + " s waiting for: " + what
                        + (seen.isEmpty() ? "" : "; last seen: " + seen));
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
