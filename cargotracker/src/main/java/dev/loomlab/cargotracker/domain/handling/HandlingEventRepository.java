package dev.loomlab.cargotracker.domain.handling;

import dev.loomlab.cargotracker.domain.cargo.TrackingId;

public interface HandlingEventRepository {

    void store(HandlingEvent event);

    HandlingHistory historyOf(TrackingId cargo);

    long count();
}
