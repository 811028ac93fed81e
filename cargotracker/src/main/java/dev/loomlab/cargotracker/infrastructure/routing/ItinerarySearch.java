package dev.loomlab.cargotracker.infrastructure.routing;

import dev.loomlab.cargotracker.domain.cargo.Itinerary;
import dev.loomlab.cargotracker.domain.cargo.Leg;
import dev.loomlab.cargotracker.domain.location.UnLocode;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * Earliest-arrival search over the voyage network (Dijkstra on a time-dependent graph), extended
 * to return the k best routes: a port may be settled several times, so the second-best arrival at
 * a transfer port can still lead to the second-best route. Routes through the same ports count
 * once (the earliest), so the alternatives offered really are different ways to go.
 *
 * <p>Rules every route obeys: the first leg leaves no earlier than asked; each later leg leaves at
 * least {@code minimumTransfer} after the previous one arrived; no port is visited twice; no leg
 * continues the voyage of the previous leg (that is one longer leg); the last leg arrives no later
 * than the deadline; at most {@code maxLegs} legs.
 */
final class ItinerarySearch {

    /** How often a transfer port may be settled per route wanted: later sailings still get a chance. */
    private static final int SETTLES_PER_ROUTE = 2;
    /** Bounds the work on a dense network; a real timetable of this size never gets near it. */
    private static final int MAX_EXPANSIONS = 200_000;

    private final VoyageNetwork network;
    private final Duration minimumTransfer;
    private final int maxLegs;
    private final int maxRoutes;

    ItinerarySearch(VoyageNetwork network, Duration minimumTransfer, int maxLegs, int maxRoutes) {
        if (minimumTransfer.isNegative() || maxLegs < 1 || maxRoutes < 1) {
            throw new IllegalArgumentException("transfer >= 0, at least one leg and one route");
        }
        this.network = network;
        this.minimumTransfer = minimumTransfer;
        this.maxLegs = maxLegs;
        this.maxRoutes = maxRoutes;
    }

    /** Routes from origin to destination, earliest arrival first, then fewest legs. */
    List<Itinerary> search(UnLocode origin, UnLocode destination, LocalDateTime earliestDeparture,
                           LocalDateTime latestArrival) {
        if (origin.equals(destination)) {
            return List.of();
        }
        PriorityQueue<Label> open = new PriorityQueue<>(Label.ORDER);
        open.add(Label.start(origin, earliestDeparture));
        Map<UnLocode, Integer> settled = new HashMap<>();
        Set<List<UnLocode>> pathsFound = new HashSet<>();
        List<Itinerary> routes = new ArrayList<>();
        long sequence = 0;
        int expansions = 0;
        while (!open.isEmpty() && routes.size() < maxRoutes && expansions < MAX_EXPANSIONS) {
            Label label = open.poll();
            if (label.port().equals(destination)) {
                // The same ports a week later is not an alternative worth showing: keep the earliest.
                if (pathsFound.add(label.ports())) {
                    routes.add(label.toItinerary());
                }
                continue;
            }
            if (settled.merge(label.port(), 1, Integer::sum) > SETTLES_PER_ROUTE * maxRoutes) {
                continue;
            }
            if (label.legs() == maxLegs) {
                continue;
            }
            expansions++;
            LocalDateTime ready = label.isStart() ? label.time() : label.time().plus(minimumTransfer);
            for (Connection next : network.departingFrom(label.port(), ready)) {
                if (next.arrival().isAfter(latestArrival)) {
                    continue;
                }
                if (label.isStart() || !next.voyage().equals(label.via().voyage())) {
                    if (!label.hasVisited(next.to())) {
                        open.add(label.extend(next, ++sequence));
                    }
                }
            }
        }
        return routes;
    }

    /** A partial route ending at {@code port} at {@code time}; a linked list back to the start. */
    private record Label(UnLocode port, LocalDateTime time, Connection via, Label previous, int legs, long sequence) {

        static final Comparator<Label> ORDER = Comparator.comparing(Label::time)
                .thenComparingInt(Label::legs)
                .thenComparingLong(Label::sequence);

        static Label start(UnLocode origin, LocalDateTime time) {
            return new Label(origin, time, null, null, 0, 0);
        }

        boolean isStart() {
            return via == null;
        }

        Label extend(Connection connection, long sequence) {
            return new Label(connection.to(), connection.arrival(), connection, this, legs + 1, sequence);
        }

        boolean hasVisited(UnLocode candidate) {
            for (Label step = this; step != null; step = step.previous) {
                if (step.port.equals(candidate)) {
                    return true;
                }
            }
            return false;
        }

        /** The ports of this partial route, from the start. */
        List<UnLocode> ports() {
            List<UnLocode> ports = new ArrayList<>();
            for (Label step = this; step != null; step = step.previous) {
                ports.add(step.port);
            }
            Collections.reverse(ports);
            return ports;
        }

        Itinerary toItinerary() {
            List<Leg> legs = new ArrayList<>();
            for (Label step = this; !step.isStart(); step = step.previous) {
                legs.add(step.via.toLeg());
            }
            Collections.reverse(legs);
            return new Itinerary(legs);
        }
    }
}
