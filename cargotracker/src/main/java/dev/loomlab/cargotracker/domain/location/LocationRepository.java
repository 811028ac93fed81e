package dev.loomlab.cargotracker.domain.location;

import java.util.List;
import java.util.Optional;

public interface LocationRepository {

    Optional<Location> find(UnLocode unLocode);

    /** All locations, ordered by name. */
    List<Location> findAll();

    void store(Location location);

    /** The location or an {@link UnknownLocationException} naming the input it came from. */
    default Location require(String field, UnLocode unLocode) {
        return find(unLocode).orElseThrow(() -> new UnknownLocationException(field, unLocode));
    }
}
