package dev.loomlab.cargotracker.infrastructure.routing;

import dev.loomlab.cargotracker.domain.cargo.Leg;
import dev.loomlab.cargotracker.domain.location.UnLocode;
import dev.loomlab.cargotracker.domain.voyage.VoyageNumber;
import java.time.LocalDateTime;

/**
 * One possible leg: riding a voyage from one of its ports of call to any later one. Staying on
 * board through intermediate ports is a single connection, so a route never changes ship where it
 * need not.
 */
record Connection(VoyageNumber voyage, UnLocode from, UnLocode to, LocalDateTime departure, LocalDateTime arrival) {

    Leg toLeg() {
        return new Leg(voyage, from, to, departure, arrival);
    }
}
