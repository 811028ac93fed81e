package dev.loomlab.cargotracker.domain.cargo;

import java.time.LocalDateTime;
import java.util.List;

/** Finds itineraries on the voyage network; the domain asks, the infrastructure searches. */
public interface RoutingService {

    /**
     * Itineraries that satisfy {@code specification} and leave no earlier than
     * {@code earliestDeparture}, best first (earliest arrival, then fewest legs). Empty when the
     * network cannot make it in time.
     */
    List<Itinerary> routesFor(RouteSpecification specification, LocalDateTime earliestDeparture);
}
