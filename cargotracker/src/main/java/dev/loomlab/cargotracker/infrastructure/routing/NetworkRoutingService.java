package dev.loomlab.cargotracker.infrastructure.routing;

import dev.loomlab.cargotracker.domain.cargo.Itinerary;
import dev.loomlab.cargotracker.domain.cargo.RouteSpecification;
import dev.loomlab.cargotracker.domain.cargo.RoutingService;
import dev.loomlab.cargotracker.domain.voyage.Voyage;
import dev.loomlab.cargotracker.domain.voyage.VoyageRepository;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.Collection;
import java.util.List;

/** The routing the domain asks for, searched on the voyages that are still to sail. */
@ApplicationScoped
public class NetworkRoutingService implements RoutingService {

    /** Time to move a container between ships in port. */
    static final Duration MINIMUM_TRANSFER = Duration.ofHours(2);
    static final int MAX_LEGS = 4;
    static final int MAX_ROUTES = 5;

    @Inject
    VoyageRepository voyages;

    @Override
    public List<Itinerary> routesFor(RouteSpecification spec, LocalDateTime earliestDeparture) {
        return routesOn(voyages.findArrivingAfter(earliestDeparture), spec, earliestDeparture);
    }

    /** The same search over a given set of voyages (sample data planning, tests). */
    public static List<Itinerary> routesOn(Collection<Voyage> voyages, RouteSpecification spec,
                                           LocalDateTime earliestDeparture) {
        LocalDateTime latestArrival = spec.arrivalDeadline().atTime(LocalTime.MAX);
        return new ItinerarySearch(VoyageNetwork.of(voyages), MINIMUM_TRANSFER, MAX_LEGS, MAX_ROUTES)
                .search(spec.origin(), spec.destination(), earliestDeparture, latestArrival)
                .stream()
                .filter(spec::isSatisfiedBy)
                .toList();
    }
}
