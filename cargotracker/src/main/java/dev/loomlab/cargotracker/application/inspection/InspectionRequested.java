package dev.loomlab.cargotracker.application.inspection;

import dev.loomlab.cargotracker.domain.cargo.TrackingId;

/** Asks the asynchronous inspector to look at a cargo again. */
public record InspectionRequested(TrackingId trackingId, String causedByEvent) {
}
