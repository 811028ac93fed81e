package dev.loomlab.cargotracker.domain.handling;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/** Everything reported for one cargo, in the order it happened (not the order it was reported). */
public record HandlingHistory(List<HandlingEvent> events) {

    /** Events finished at the same time keep the order they were registered in. */
    private static final Comparator<HandlingEvent> BY_COMPLETION =
            Comparator.comparing(HandlingEvent::completionTime).thenComparing(HandlingEvent::registrationTime);

    // Declared after the comparator it needs: static fields initialise in order.
    public static final HandlingHistory EMPTY = new HandlingHistory(List.of());

    public HandlingHistory {
        events = events.stream().sorted(BY_COMPLETION).toList();
    }

    /** The latest fact about the cargo: what its delivery is derived from. */
    public Optional<HandlingEvent> mostRecentlyCompleted() {
        return events.isEmpty() ? Optional.empty() : Optional.of(events.get(events.size() - 1));
    }

    public boolean isEmpty() {
        return events.isEmpty();
    }
}
