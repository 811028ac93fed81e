package dev.loomlab.cargotracker.application.handling;

import dev.loomlab.cargotracker.domain.cargo.TrackingId;
import dev.loomlab.cargotracker.domain.handling.HandlingActivity;
import dev.loomlab.cargotracker.domain.handling.HandlingEventType;
import dev.loomlab.cargotracker.domain.location.UnLocode;
import dev.loomlab.cargotracker.domain.voyage.VoyageNumber;
import java.time.LocalDateTime;
import java.util.Objects;

/**
 * What someone in the field reports, already parsed into domain values: the same for the event
 * logger page, the REST intake and the CSV import. Building it checks the load/unload-needs-voyage
 * rule, so a report that exists is well formed; whether the cargo, place and voyage exist is the
 * service's job.
 */
public record HandlingReport(LocalDateTime completionTime, TrackingId trackingId, HandlingActivity activity) {

    public HandlingReport {
        Objects.requireNonNull(completionTime, "completionTime");
        Objects.requireNonNull(trackingId, "trackingId");
        Objects.requireNonNull(activity, "activity");
    }

    public HandlingReport(LocalDateTime completionTime, TrackingId trackingId, HandlingEventType type,
                          UnLocode location, VoyageNumber voyage) {
        this(completionTime, trackingId, new HandlingActivity(type, location, voyage));
    }
}
