package dev.loomlab.cargotracker.interfaces.web;

import dev.loomlab.cargotracker.domain.cargo.TrackingId;
import dev.loomlab.cargotracker.domain.shared.DomainException;
import java.util.Optional;

/** Tracking ids from URLs and forms: an absent or malformed one is a message, not an exception. */
public final class TrackingIds {

    private TrackingIds() {
    }

    public static Optional<TrackingId> parse(String text, StringBuilder problem) {
        if (text == null || text.isBlank()) {
            problem.append("Enter a tracking id, for example LOOM0004.");
            return Optional.empty();
        }
        try {
            return Optional.of(TrackingId.parse(text));
        } catch (DomainException e) {
            problem.append(e.getMessage());
            return Optional.empty();
        }
    }
}
