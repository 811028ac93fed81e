package dev.loomlab.cargotracker.infrastructure.sampledata;

import static dev.loomlab.cargotracker.infrastructure.sampledata.SamplePorts.*;

import dev.loomlab.cargotracker.domain.cargo.Cargo;
import dev.loomlab.cargotracker.domain.cargo.Itinerary;
import dev.loomlab.cargotracker.domain.cargo.Leg;
import dev.loomlab.cargotracker.domain.cargo.RouteSpecification;
import dev.loomlab.cargotracker.domain.cargo.RoutingService;
import dev.loomlab.cargotracker.domain.cargo.TrackingId;
import dev.loomlab.cargotracker.domain.handling.HandlingActivity;
import dev.loomlab.cargotracker.domain.handling.HandlingEvent;
import dev.loomlab.cargotracker.domain.handling.HandlingEventType;
import dev.loomlab.cargotracker.domain.handling.HandlingHistory;
import dev.loomlab.cargotracker.domain.location.UnLocode;
import dev.loomlab.cargotracker.domain.voyage.CarrierMovement;
import dev.loomlab.cargotracker.domain.voyage.Voyage;
import dev.loomlab.cargotracker.domain.voyage.VoyageNumber;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Plans the sample cargos, one in every state the application knows, with histories that agree
 * with the timetable: a cargo "on board" really left on a voyage that has not arrived yet. Routes
 * come from the real search; each scenario tries start days and port pairs until the timetable
 * offers one that fits "now".
 */
final class SampleCargos {

    /** A cargo to store, with the handling events that brought it to its state. */
    record Planned(Cargo cargo, List<HandlingEvent> events) {
    }

    static final TrackingId NOT_ROUTED = new TrackingId("LOOM0001");
    static final TrackingId ROUTED = new TrackingId("LOOM0002");
    static final TrackingId RECEIVED = new TrackingId("LOOM0003");
    static final TrackingId ON_BOARD = new TrackingId("LOOM0004");
    static final TrackingId AT_TRANSFER = new TrackingId("LOOM0005");
    static final TrackingId MISDIRECTED = new TrackingId("LOOM0006");
    static final TrackingId ARRIVED = new TrackingId("LOOM0007");
    static final TrackingId CLAIMED = new TrackingId("LOOM0008");
    static final TrackingId MISROUTED = new TrackingId("LOOM0009");

    private static final int DEADLINE_DAYS = 70;

    private final LocalDateTime now;
    private final RoutingService routing;
    private final Function<VoyageNumber, Optional<Voyage>> voyages;

    SampleCargos(LocalDateTime now, RoutingService routing, Function<VoyageNumber, Optional<Voyage>> voyages) {
        this.now = now;
        this.routing = routing;
        this.voyages = voyages;
    }

    List<Planned> plan() {
        List<Planned> planned = new ArrayList<>();
        planned.add(notRouted());
        routed(ROUTED, HONG_KONG, NEW_YORK).ifPresent(planned::add);
        received().ifPresent(planned::add);
        onBoard().ifPresent(planned::add);
        atTransfer().ifPresent(planned::add);
        misdirected().ifPresent(planned::add);
        delivered(ARRIVED, NEW_YORK, HAMBURG, false).ifPresent(planned::add);
        delivered(CLAIMED, HAMBURG, HELSINKI, true).ifPresent(planned::add);
        misrouted().ifPresent(planned::add);
        return planned;
    }

    private Planned notRouted() {
        return new Planned(booked(NOT_ROUTED, SHANGHAI, HAMBURG, now.minusDays(1)), List.of());
    }

    private Optional<Planned> routed(TrackingId id, UnLocode from, UnLocode to) {
        return firstRoute(from, to, now.plusDays(1), 0, 0, itinerary -> true)
                .map(route -> new Planned(routedCargo(id, route, now.minusDays(1)), List.of()));
    }

    private Optional<Planned> received() {
        return firstRoute(TOKYO, CHICAGO, now, 0, 0, itinerary -> true).map(route -> {
            Cargo cargo = routedCargo(RECEIVED, route, now.minusDays(3));
            return new Planned(cargo, List.of(event(cargo, HandlingEventType.RECEIVE, route.initialDeparture(), null,
                    now.minusDays(1))));
        });
    }

    private Optional<Planned> onBoard() {
        return firstRoute(SHANGHAI, ROTTERDAM, now, 3, 28,
                route -> route.firstLeg().loadTime().isBefore(now.minusHours(1)) && route.firstLeg().unloadTime().isAfter(now))
                .map(route -> plannedAlong(ON_BOARD, route, 2));
    }

    /** Unloaded at a transfer port, waiting for its next ship. */
    private Optional<Planned> atTransfer() {
        Predicate<Itinerary> waiting = route -> route.legs().size() >= 2
                && route.legs().get(0).unloadTime().isBefore(now) && route.legs().get(1).loadTime().isAfter(now);
        for (UnLocode[] pair : new UnLocode[][] {{HAMBURG, CHICAGO}, {SHANGHAI, DALLAS}, {HELSINKI, NEW_YORK},
                {MELBOURNE, SHANGHAI}, {NEW_YORK, HELSINKI}, {TOKYO, DALLAS}}) {
            Optional<Itinerary> route = firstRoute(pair[0], pair[1], now, 3, 40, waiting);
            if (route.isPresent()) {
                return route.map(r -> plannedAlong(AT_TRANSFER, r, 3));
            }
        }
        return Optional.empty();
    }

    /** Loaded as planned, then unloaded at a port the voyage calls at but the route does not. */
    private Optional<Planned> misdirected() {
        return firstRoute(SHANGHAI, HAMBURG, now, 5, 30, route -> wrongStop(route.firstLeg()).isPresent()).map(route -> {
            Leg leg = route.firstLeg();
            CarrierMovement wrong = wrongStop(leg).orElseThrow();
            Cargo cargo = routedCargo(MISDIRECTED, route, leg.loadTime().minusDays(2));
            List<HandlingEvent> events = List.of(
                    event(cargo, HandlingEventType.RECEIVE, leg.loadLocation(), null, leg.loadTime().minusHours(12)),
                    event(cargo, HandlingEventType.LOAD, leg.loadLocation(), leg.voyage(), leg.loadTime()),
                    event(cargo, HandlingEventType.UNLOAD, wrong.arrivalLocation(), leg.voyage(), wrong.arrivalTime()));
            return new Planned(cargo, events);
        });
    }

    private Optional<Planned> delivered(TrackingId id, UnLocode from, UnLocode to, boolean claimed) {
        return firstRoute(from, to, now, 10, 40, route -> route.finalArrivalTime().isBefore(now.minusDays(2)))
                .map(route -> {
                    Planned planned = plannedAlong(id, route, 2 * route.legs().size() + 1);
                    if (!claimed) {
                        return planned;
                    }
                    List<HandlingEvent> events = new ArrayList<>(planned.events());
                    events.add(event(planned.cargo(), HandlingEventType.CLAIM, route.finalArrival(), null,
                            route.finalArrivalTime().plusDays(1)));
                    return new Planned(planned.cargo(), events);
                });
    }

    /** Routed to Long Beach, then the customer changed the destination to Dallas. */
    private Optional<Planned> misrouted() {
        return routed(MISROUTED, HONG_KONG, LONG_BEACH).map(planned -> {
            Cargo cargo = planned.cargo();
            cargo.specifyNewRoute(cargo.routeSpecification().withDestination(DALLAS), now.minusHours(6));
            return planned;
        });
    }

    /** The cargo with the first {@code steps} handling steps of its route done, on schedule. */
    private Planned plannedAlong(TrackingId id, Itinerary route, int steps) {
        Cargo cargo = routedCargo(id, route, route.firstLeg().loadTime().minusDays(3));
        List<HandlingEvent> events = new ArrayList<>();
        events.add(event(cargo, HandlingEventType.RECEIVE, route.initialDeparture(), null, route.firstLeg().loadTime().minusHours(12)));
        for (Leg leg : route.legs()) {
            events.add(event(cargo, HandlingEventType.LOAD, leg.loadLocation(), leg.voyage(), leg.loadTime()));
            events.add(event(cargo, HandlingEventType.UNLOAD, leg.unloadLocation(), leg.voyage(), leg.unloadTime()));
        }
        return new Planned(cargo, List.copyOf(events.subList(0, Math.min(steps, events.size()))));
    }

    private Optional<CarrierMovement> wrongStop(Leg leg) {
        return voyages.apply(leg.voyage()).flatMap(voyage -> voyage.schedule().movements().stream()
                .filter(m -> m.arrivalTime().isAfter(leg.loadTime()) && m.arrivalTime().isBefore(leg.unloadTime())
                        && m.arrivalTime().isBefore(now))
                .findFirst());
    }

    /**
     * The best route leaving after {@code start - k days} for k in [minDaysBack, maxDaysBack] that
     * satisfies {@code fits}: the timetable is weekly, so some start day lines up with "now".
     */
    private Optional<Itinerary> firstRoute(UnLocode from, UnLocode to, LocalDateTime start, int minDaysBack,
                                           int maxDaysBack, Predicate<Itinerary> fits) {
        for (int daysBack = minDaysBack; daysBack <= maxDaysBack; daysBack++) {
            LocalDateTime earliest = start.minusDays(daysBack);
            RouteSpecification spec = new RouteSpecification(from, to, earliest.toLocalDate().plusDays(DEADLINE_DAYS));
            for (Itinerary route : routing.routesFor(spec, earliest)) {
                if (fits.test(route)) {
                    return Optional.of(route);
                }
            }
        }
        return Optional.empty();
    }

    private Cargo booked(TrackingId id, UnLocode from, UnLocode to, LocalDateTime bookedAt) {
        return new Cargo(id, new RouteSpecification(from, to, bookedAt.toLocalDate().plusDays(DEADLINE_DAYS)), bookedAt);
    }

    private Cargo routedCargo(TrackingId id, Itinerary route, LocalDateTime bookedAt) {
        Cargo cargo = new Cargo(id, new RouteSpecification(route.initialDeparture(), route.finalArrival(),
                bookedAt.toLocalDate().plusDays(DEADLINE_DAYS)), bookedAt);
        cargo.assignToRoute(route, bookedAt.plusHours(1));
        return cargo;
    }

    private HandlingEvent event(Cargo cargo, HandlingEventType type, UnLocode place, VoyageNumber voyage,
                                LocalDateTime completed) {
        return new HandlingEvent(cargo.trackingId(), new HandlingActivity(type, place, voyage), completed,
                completed.plusMinutes(5));
    }

    /** Brings each planned cargo's delivery up to date with its events. */
    static void deriveDeliveries(List<Planned> planned, LocalDateTime now) {
        for (Planned p : planned) {
            if (!p.events().isEmpty()) {
                p.cargo().deriveDeliveryProgress(new HandlingHistory(p.events()), now);
            }
        }
    }
}
