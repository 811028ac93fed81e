package dev.loomlab.cargotracker.interfaces.web.view;

import java.io.Serializable;
import java.util.List;

/**
 * A cargo as the pages show it: every text already worded and formatted, so the pages only place
 * it. Pages read components with EL method calls, e.g. {@code #{cargo.trackingId()}} (EL 5 has no
 * record resolver). Serializable because view-scoped pages keep it between requests.
 */
public record CargoView(String trackingId, String origin, String destination, String deadline, String bookedAt,
                        String routingStatus, String routingStatusCss, String transportStatus, String statusHeadline,
                        boolean misdirected, boolean routed, boolean claimed, boolean unloadedAtDestination,
                        boolean canBeRouted, String eta, String nextActivity, String lastKnownLocation,
                        String currentVoyage, List<LegView> legs, List<EventView> history) implements Serializable {

    /** One leg of the itinerary; {@code done} once the cargo was unloaded from it. */
    public record LegView(String voyage, String from, String loadTime, String to, String unloadTime) implements Serializable {
    }

    /** One handling event; {@code expected} is false for the event that made the cargo misdirected. */
    public record EventView(String description, String time, boolean expected) implements Serializable {
    }
}
