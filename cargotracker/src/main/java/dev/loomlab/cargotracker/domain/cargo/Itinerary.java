package dev.loomlab.cargotracker.domain.cargo;

import dev.loomlab.cargotracker.domain.handling.HandlingActivity;
import dev.loomlab.cargotracker.domain.handling.HandlingEventType;
import dev.loomlab.cargotracker.domain.location.UnLocode;
import java.io.Serializable;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The planned route of a cargo: legs that connect, each loaded where the previous one was
 * unloaded and not before. It knows which handling it expects, which is how a misdirected cargo
 * is noticed.
 */
public record Itinerary(List<Leg> legs) implements Serializable {

    public static final Itinerary EMPTY = new Itinerary(List.of());

    public Itinerary {
        Objects.requireNonNull(legs, "legs");
        legs = List.copyOf(legs);
        for (int i = 1; i < legs.size(); i++) {
            Leg previous = legs.get(i - 1);
            Leg next = legs.get(i);
            if (!next.loadLocation().equals(previous.unloadLocation())) {
                throw new IllegalArgumentException("leg " + (i + 1) + " is loaded at " + next.loadLocation()
                        + " but leg " + i + " unloads at " + previous.unloadLocation());
            }
            if (next.loadTime().isBefore(previous.unloadTime())) {
                throw new IllegalArgumentException("leg " + (i + 1) + " leaves before leg " + i + " arrives");
            }
        }
    }

    public boolean isEmpty() {
        return legs.isEmpty();
    }

    public UnLocode initialDeparture() {
        return firstLeg().loadLocation();
    }

    public UnLocode finalArrival() {
        return lastLeg().unloadLocation();
    }

    public LocalDateTime finalArrivalTime() {
        return lastLeg().unloadTime();
    }

    public Leg firstLeg() {
        requireLegs();
        return legs.get(0);
    }

    public Leg lastLeg() {
        requireLegs();
        return legs.get(legs.size() - 1);
    }

    /**
     * Whether this handling fits the plan. An empty itinerary has no plan to break. Customs may
     * clear a cargo at any port of call, so it never misdirects. An unload at the route's first
     * port is expected too: that is where a re-routed cargo stands when its new route begins.
     */
    public boolean isExpected(HandlingActivity activity) {
        if (isEmpty()) {
            return true;
        }
        UnLocode place = activity.location();
        return switch (activity.type()) {
            case RECEIVE -> place.equals(initialDeparture());
            case LOAD -> legs.stream().anyMatch(leg -> leg.loadLocation().equals(place)
                    && leg.voyage().equals(activity.voyage()));
            case UNLOAD -> place.equals(initialDeparture()) || legs.stream().anyMatch(leg ->
                    leg.unloadLocation().equals(place) && leg.voyage().equals(activity.voyage()));
            case CLAIM -> place.equals(finalArrival());
            case CUSTOMS -> true;
        };
    }

    /** What the plan says comes after {@code last}; empty when nothing more is planned or it is off plan. */
    public Optional<HandlingActivity> activityAfter(HandlingActivity last) {
        if (isEmpty()) {
            return Optional.empty();
        }
        return switch (last.type()) {
            case RECEIVE -> Optional.of(loadOf(firstLeg()));
            case LOAD -> legs.stream()
                    .filter(leg -> leg.loadLocation().equals(last.location()) && leg.voyage().equals(last.voyage()))
                    .findFirst()
                    .map(leg -> HandlingActivity.onVoyage(HandlingEventType.UNLOAD, leg.unloadLocation(), leg.voyage()));
            case UNLOAD -> afterUnload(last);
            case CUSTOMS -> last.location().equals(finalArrival())
                    ? Optional.of(HandlingActivity.onLand(HandlingEventType.CLAIM, finalArrival()))
                    : Optional.empty();
            case CLAIM -> Optional.empty();
        };
    }

    /** Before any handling, the cargo is expected to be received where the route starts. */
    public Optional<HandlingActivity> firstActivity() {
        return isEmpty() ? Optional.empty()
                : Optional.of(HandlingActivity.onLand(HandlingEventType.RECEIVE, initialDeparture()));
    }

    private Optional<HandlingActivity> afterUnload(HandlingActivity unload) {
        for (int i = 0; i < legs.size(); i++) {
            Leg leg = legs.get(i);
            if (leg.unloadLocation().equals(unload.location()) && leg.voyage().equals(unload.voyage())) {
                return Optional.of(i == legs.size() - 1
                        ? HandlingActivity.onLand(HandlingEventType.CLAIM, leg.unloadLocation())
                        : loadOf(legs.get(i + 1)));
            }
        }
        // Unloaded where a new route begins (after re-routing): the first leg is next.
        return unload.location().equals(initialDeparture()) ? Optional.of(loadOf(firstLeg())) : Optional.empty();
    }

    private static HandlingActivity loadOf(Leg leg) {
        return HandlingActivity.onVoyage(HandlingEventType.LOAD, leg.loadLocation(), leg.voyage());
    }

    private void requireLegs() {
        if (legs.isEmpty()) {
            throw new IllegalStateException("an empty itinerary has no legs");
        }
    }
}
