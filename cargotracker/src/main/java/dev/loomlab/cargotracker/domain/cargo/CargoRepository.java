package dev.loomlab.cargotracker.domain.cargo;

import java.util.Optional;

public interface CargoRepository {

    Optional<Cargo> find(TrackingId trackingId);

    void store(Cargo cargo);

    long count();

    default Cargo require(TrackingId trackingId) {
        return find(trackingId).orElseThrow(() -> new UnknownCargoException(trackingId));
    }

    default TrackingId nextTrackingId() {
        return TrackingId.random();
    }
}
