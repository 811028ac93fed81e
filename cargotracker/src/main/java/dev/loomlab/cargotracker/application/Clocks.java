package dev.loomlab.cargotracker.application;

import java.time.Clock;
import java.time.LocalDate;
import java.time.LocalDateTime;

/** All times in CargoTracker are UTC wall-clock times; this is the one place that says so. */
public final class Clocks {

    private Clocks() {
    }

    public static LocalDateTime now(Clock clock) {
        return LocalDateTime.now(clock.withZone(java.time.ZoneOffset.UTC));
    }

    public static LocalDate today(Clock clock) {
        return LocalDate.now(clock.withZone(java.time.ZoneOffset.UTC));
    }
}
