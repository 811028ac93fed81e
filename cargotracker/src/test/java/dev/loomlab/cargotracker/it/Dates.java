package dev.loomlab.cargotracker.it;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;

/** "Now" as the application sees it: UTC. */
final class Dates {

    private Dates() {
    }

    static LocalDate today() {
        return LocalDate.now(ZoneOffset.UTC);
    }

    static LocalDateTime now() {
        return LocalDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.SECONDS);
    }
}
