package dev.loomlab.cargotracker.domain.handling;

import dev.loomlab.cargotracker.domain.location.UnLocode;
import dev.loomlab.cargotracker.domain.shared.DomainException;
import dev.loomlab.cargotracker.domain.voyage.VoyageNumber;
import java.util.Objects;
import java.util.Optional;

/**
 * A handling step at a place, on a voyage when the step is a load or an unload: what happened in
 * an event, or what is expected to happen next.
 */
public record HandlingActivity(HandlingEventType type, UnLocode location, VoyageNumber voyage) {

    public HandlingActivity {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(location, "location");
        if (type.requiresVoyage() && voyage == null) {
            throw new DomainException("voyageNumber", "A " + type + " event needs a voyage number: cargo is "
                    + (type == HandlingEventType.LOAD ? "loaded onto" : "unloaded from") + " a voyage.");
        }
        if (type.prohibitsVoyage() && voyage != null) {
            throw new DomainException("voyageNumber", "A " + type + " event happens on land and takes no voyage number.");
        }
    }

    public static HandlingActivity onLand(HandlingEventType type, UnLocode location) {
        return new HandlingActivity(type, location, null);
    }

    public static HandlingActivity onVoyage(HandlingEventType type, UnLocode location, VoyageNumber voyage) {
        return new HandlingActivity(type, location, voyage);
    }

    public Optional<VoyageNumber> voyageIfAny() {
        return Optional.ofNullable(voyage);
    }

    @Override
    public String toString() {
        return type + " at " + location + (voyage == null ? "" : " on " + voyage);
    }
}
