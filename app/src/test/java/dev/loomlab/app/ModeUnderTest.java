package dev.loomlab.app;

import java.util.OptionalInt;

/**
 * What the running server should look like in the mode Failsafe launched it in
 * ({@code -Dloomlab.mode=...}, one execution per mode).
 */
enum ModeUnderTest {
    PLATFORM_4000("platform-4000", false, 4000, -1),
    PLATFORM_10000("platform-10000", false, 10000, -1),
    VIRTUAL("virtual", true, -1, -1),
    VIRTUAL_4000("virtual-4000", true, 4000, -1),
    VIRTUAL_REUSING("virtual-reusing", true, -1, -1),
    VIRTUAL_BOUNDED_TEST("virtual-bounded-test", true, 10, 10);

    final String name;
    final boolean virtual;
    /** Requests that may run at once; -1 when unbounded. */
    final int maxConcurrent;
    /** Requests that may wait for a turn; -1 when unlimited. */
    final int maxWaiting;

    ModeUnderTest(String name, boolean virtual, int maxConcurrent, int maxWaiting) {
        this.name = name;
        this.virtual = virtual;
        this.maxConcurrent = maxConcurrent;
        this.maxWaiting = maxWaiting;
    }

    static ModeUnderTest current() {
        String mode = System.getProperty("loomlab.mode");
        for (ModeUnderTest m : values()) {
            if (m.name.equals(mode)) {
                return m;
            }
        }
        throw new IllegalStateException("-Dloomlab.mode must name a mode of app/pom.xml's Failsafe executions, was " + mode);
    }

    OptionalInt bound() {
        return maxConcurrent < 0 ? OptionalInt.empty() : OptionalInt.of(maxConcurrent);
    }

    boolean admitsAtOnce(int requests) {
        return maxConcurrent < 0 || maxConcurrent >= requests;
    }
}
