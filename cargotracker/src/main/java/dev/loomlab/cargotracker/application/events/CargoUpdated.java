package dev.loomlab.cargotracker.application.events;

import dev.loomlab.cargotracker.domain.cargo.Cargo;
import dev.loomlab.cargotracker.domain.cargo.Delivery;
import java.time.LocalDateTime;

/**
 * A cargo changed (booked, routed, re-specified or inspected after handling). Carries a snapshot
 * so listeners such as the SSE stream need not read the database again.
 */
public record CargoUpdated(String trackingId, String change, String transportStatus, String routingStatus,
                           boolean misdirected, boolean unloadedAtDestination, String lastKnownLocation,
                           LocalDateTime eta, LocalDateTime at) {

    public static CargoUpdated of(Cargo cargo, String change, LocalDateTime at) {
        Delivery d = cargo.delivery();
        return new CargoUpdated(cargo.trackingId().id(), change, d.transportStatus().name(), d.routingStatus().name(),
                d.isMisdirected(), d.isUnloadedAtDestination(),
                d.lastKnownLocation().map(Object::toString).orElse(null), d.eta().orElse(null), at);
    }
}
