package dev.loomlab.cargotracker.domain.cargo;

import dev.loomlab.cargotracker.domain.shared.NotFoundException;

public class UnknownCargoException extends NotFoundException {

    public UnknownCargoException(TrackingId trackingId) {
        super("trackingId", "No cargo with tracking id " + trackingId + " is known.");
    }
}
