package dev.loomlab.cargotracker.domain.voyage;

import dev.loomlab.cargotracker.domain.location.UnLocode;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Optional;

public interface VoyageRepository {

    Optional<Voyage> find(VoyageNumber number);

    /** Voyages still under way or yet to leave at {@code time}: the ones a new route may use. */
    List<Voyage> findArrivingAfter(LocalDateTime time);

    /** Voyages that arrive at or leave {@code port} between the two times, for pick lists. */
    List<Voyage> findCallingAt(UnLocode port, LocalDateTime from, LocalDateTime to);

    void store(Voyage voyage);

    default Voyage require(VoyageNumber number) {
        return find(number).orElseThrow(() -> new UnknownVoyageException(number));
    }
}
