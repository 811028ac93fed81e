package dev.loomlab.cargotracker.application.queries;

import dev.loomlab.cargotracker.domain.cargo.RoutingStatus;
import dev.loomlab.cargotracker.domain.cargo.TransportStatus;
import java.time.LocalDate;
import java.time.LocalDateTime;

/**
 * One row of a cargo list: what the cargo table already holds (route specification and the stored
 * delivery), read without building the aggregate. Lists are read far more often than they change,
 * and building a thousand Cargo entities with their legs only to show ten columns was wasted work.
 */
public record CargoSummary(String trackingId, String origin, String destination, LocalDate arrivalDeadline,
                           LocalDateTime bookedAt, TransportStatus transportStatus, RoutingStatus routingStatus,
                           boolean misdirected, boolean unloadedAtDestination, LocalDateTime eta,
                           String lastKnownLocation, String lastVoyage) {

    /** The voyage the cargo is on right now, or null when it is not on board. */
    public String currentVoyage() {
        return transportStatus == TransportStatus.ONBOARD_CARRIER ? lastVoyage : null;
    }
}
