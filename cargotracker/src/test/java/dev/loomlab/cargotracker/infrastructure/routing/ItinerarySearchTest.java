package dev.loomlab.cargotracker.infrastructure.routing;

import static dev.loomlab.cargotracker.domain.Fixtures.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomlab.cargotracker.domain.cargo.Itinerary;
import dev.loomlab.cargotracker.domain.cargo.Leg;
import dev.loomlab.cargotracker.domain.cargo.RouteSpecification;
import dev.loomlab.cargotracker.domain.location.UnLocode;
import dev.loomlab.cargotracker.domain.voyage.Schedule;
import dev.loomlab.cargotracker.domain.voyage.Voyage;
import dev.loomlab.cargotracker.domain.voyage.VoyageNumber;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ItinerarySearchTest {

    private static final VoyageNumber FEEDER = new VoyageNumber("FEEDER");
    private static final VoyageNumber HK_EXPRESS = new VoyageNumber("HKEXP");
    private static final VoyageNumber SG_EXPRESS = new VoyageNumber("SGEXP");
    private static final VoyageNumber SLOW_DIRECT = new VoyageNumber("SLOW");
    private static final VoyageNumber TOO_EARLY = new VoyageNumber("EARLY");

    /** Feeder Shanghai - Hong Kong - Singapore, with a connection to Rotterdam at each; plus a slow direct ship. */
    private final List<Voyage> network = List.of(
            voyage(FEEDER, Schedule.departingFrom(SHANGHAI, day(0)).arriveAt(HONG_KONG, day(2), day(2).plusHours(12)).endAt(SINGAPORE, day(5))),
            voyage(HK_EXPRESS, Schedule.departingFrom(HONG_KONG, day(3)).endAt(ROTTERDAM, day(24))),
            voyage(SG_EXPRESS, Schedule.departingFrom(SINGAPORE, day(6)).endAt(ROTTERDAM, day(25))),
            voyage(SLOW_DIRECT, Schedule.departingFrom(SHANGHAI, day(1)).endAt(ROTTERDAM, day(30))),
            // Leaves Hong Kong one hour after the feeder arrives: too tight for a 2-hour transfer.
            voyage(TOO_EARLY, Schedule.departingFrom(HONG_KONG, day(2).plusHours(1)).endAt(ROTTERDAM, day(20))));

    private List<Itinerary> search(List<Voyage> voyages, LocalDateTime from, LocalDateTime latest, int maxLegs) {
        return new ItinerarySearch(VoyageNetwork.of(voyages), Duration.ofHours(2), maxLegs, 5)
                .search(SHANGHAI, ROTTERDAM, from, latest);
    }

    @Test
    void findsEveryFeasibleRouteEarliestArrivalFirst() {
        List<Itinerary> routes = search(network, day(0), day(60), 4);
        assertEquals(List.of(List.of(FEEDER, HK_EXPRESS), List.of(FEEDER, SG_EXPRESS), List.of(SLOW_DIRECT)), voyagesOf(routes));
        assertEquals(day(24), routes.get(0).finalArrivalTime());
    }

    @Test
    void staysOnBoardThroughIntermediatePortsAsOneLeg() {
        Leg feederToSingapore = search(network, day(0), day(60), 4).get(1).firstLeg();
        assertEquals(SHANGHAI, feederToSingapore.loadLocation());
        assertEquals(SINGAPORE, feederToSingapore.unloadLocation());
        assertEquals(day(5), feederToSingapore.unloadTime());
    }

    @Test
    void needsTheMinimumTransferTimeBetweenShips() {
        List<Voyage> withTightConnection = new ArrayList<>(network);
        assertTrue(voyagesOf(search(withTightConnection, day(0), day(60), 4)).stream().noneMatch(r -> r.contains(TOO_EARLY)));

        VoyageNumber justInTime = new VoyageNumber("JIT");
        withTightConnection.add(voyage(justInTime, Schedule.departingFrom(HONG_KONG, day(2).plusHours(2)).endAt(ROTTERDAM, day(19))));
        assertEquals(List.of(FEEDER, justInTime), voyagesOf(search(withTightConnection, day(0), day(60), 4)).get(0));
    }

    @Test
    void respectsTheDeadline() {
        assertEquals(List.of(List.of(FEEDER, HK_EXPRESS)), voyagesOf(search(network, day(0), day(24), 4)));
        assertTrue(search(network, day(0), day(23), 4).isEmpty());
    }

    @Test
    void neverLeavesBeforeTheEarliestDeparture() {
        List<Itinerary> routes = search(network, day(0).plusHours(1), day(60), 4);
        assertEquals(List.of(List.of(SLOW_DIRECT)), voyagesOf(routes));
    }

    @Test
    void respectsTheLegLimit() {
        assertEquals(List.of(List.of(SLOW_DIRECT)), voyagesOf(search(network, day(0), day(60), 1)));
    }

    @Test
    void neverVisitsAPortTwice() {
        // A ferry back to Shanghai from Hong Kong then the slow ship would be a loop: never proposed.
        VoyageNumber back = new VoyageNumber("BACK");
        List<Voyage> withLoop = new ArrayList<>(network);
        withLoop.add(voyage(back, Schedule.departingFrom(HONG_KONG, day(2).plusHours(3)).endAt(SHANGHAI, day(3))));
        for (Itinerary route : search(withLoop, day(0), day(90), 4)) {
            List<UnLocode> ports = new ArrayList<>();
            ports.add(route.initialDeparture());
            route.legs().forEach(leg -> ports.add(leg.unloadLocation()));
            assertEquals(ports.size(), ports.stream().distinct().count(), "loop in " + route);
        }
    }

    @Test
    void offersTheSamePortsOnlyOnceAtTheirEarliest() {
        VoyageNumber nextWeek = new VoyageNumber("HKEXP2");
        List<Voyage> withWeeklyRepeat = new ArrayList<>(network);
        withWeeklyRepeat.add(voyage(nextWeek, Schedule.departingFrom(HONG_KONG, day(10)).endAt(ROTTERDAM, day(31))));
        List<List<VoyageNumber>> routes = voyagesOf(search(withWeeklyRepeat, day(0), day(60), 4));
        assertEquals(List.of(List.of(FEEDER, HK_EXPRESS), List.of(FEEDER, SG_EXPRESS), List.of(SLOW_DIRECT)), routes);
    }

    @Test
    void limitsTheNumberOfRoutesAndFindsNoneWithoutConnections() {
        List<Itinerary> routes = new ItinerarySearch(VoyageNetwork.of(network), Duration.ofHours(2), 4, 2)
                .search(SHANGHAI, ROTTERDAM, day(0), day(60));
        assertEquals(2, routes.size());
        assertTrue(search(List.of(), day(0), day(60), 4).isEmpty());
        assertTrue(new ItinerarySearch(VoyageNetwork.of(network), Duration.ZERO, 4, 5)
                .search(ROTTERDAM, SHANGHAI, day(0), day(60)).isEmpty(), "no ship sails that way");
    }

    @Test
    void theRoutingServiceOnlyReturnsRoutesThatSatisfyTheSpecification() {
        RouteSpecification byDay25 = new RouteSpecification(SHANGHAI, ROTTERDAM, day(25).toLocalDate());
        List<Itinerary> routes = NetworkRoutingService.routesOn(network, byDay25, day(0));
        assertEquals(List.of(List.of(FEEDER, HK_EXPRESS), List.of(FEEDER, SG_EXPRESS)), voyagesOf(routes));
        routes.forEach(route -> assertTrue(byDay25.isSatisfiedBy(route)));
    }

    private static Voyage voyage(VoyageNumber number, Schedule schedule) {
        return new Voyage(number, schedule);
    }

    private static List<List<VoyageNumber>> voyagesOf(List<Itinerary> routes) {
        return routes.stream().map(route -> route.legs().stream().map(Leg::voyage).toList()).toList();
    }
}
