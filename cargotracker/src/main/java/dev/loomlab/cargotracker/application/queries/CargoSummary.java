package dev.loomlab.cargotracker.application.queries;

import dev.loomlab.cargotracker.domain.cargo.RoutingStatus;
import dev.loomlab.cargotracker.domain.cargo.TransportStatus;
import dev.loomlab.cargotracker.domain.location.UnLocode;
import dev.loomlab.cargotracker.domain.voyage.VoyageNumber;
import java.time.LocalDate;
import java.time.LocalDateTime;

/**
 * One row of a cargo list: what the cargo table already holds (route specification and the stored
 * delivery), read without building the aggregate. Lists are read far more often than they change,
 * and building a thousand Cargo entities with their legs only to show ten columns was wasted work.
 *
 * @param lastKnownLocation null before the cargo is received
 * @param lastVoyage        the voyage of the last load or unload, null when the last event had none
 */
public record CargoSummary(String trackingId, UnLocode origin, UnLocode destination, LocalDate arrivalDeadline,
                           LocalDateTime bookedAt, TransportStatus transportStatus, RoutingStatus routingStatus,
                           boolean misdirected, boolean unloadedAtDestination, LocalDateTime eta,
                           UnLocode lastKnownLocation, VoyageNumber lastVoyage) {

    /** The voyage the cargo is on right now, or null when it is not on board. */
    public VoyageNumber currentVoyage() {
        return transportStatus == TransportStatus.ONBOARD_CARRIER ? lastVoyage : null;
    }
}
