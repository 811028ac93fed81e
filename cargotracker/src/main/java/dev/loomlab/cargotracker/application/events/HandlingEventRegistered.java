package dev.loomlab.cargotracker.application.events;

import dev.loomlab.cargotracker.domain.cargo.TrackingId;

/** A handling event was stored; the cargo it concerns is to be inspected once the transaction commits. */
public record HandlingEventRegistered(TrackingId trackingId, String eventId) {
}
