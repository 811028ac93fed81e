package dev.loomlab.cargotracker.domain.cargo;

import static dev.loomlab.cargotracker.domain.Fixtures.*;
import static dev.loomlab.cargotracker.domain.handling.HandlingEventType.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomlab.cargotracker.domain.handling.HandlingActivity;
import dev.loomlab.cargotracker.domain.handling.HandlingEvent;
import dev.loomlab.cargotracker.domain.handling.HandlingHistory;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Delivery derivation, told as the life of one cargo from Shanghai to Rotterdam via Hong Kong. */
class DeliveryTest {

    private final Itinerary itinerary = new Itinerary(List.of(
            leg(V1, SHANGHAI, HONG_KONG, 1, 3),
            leg(V2, HONG_KONG, ROTTERDAM, 4, 25)));
    private final RouteSpecification spec = new RouteSpecification(SHANGHAI, ROTTERDAM, LocalDate.of(2030, 4, 30));

    private Delivery after(HandlingEvent... events) {
        return Delivery.derivedFrom(spec, itinerary, new HandlingHistory(List.of(events)), day(40));
    }

    @Test
    void beforeAnyHandlingItIsNotReceivedAndExpectedAtOrigin() {
        Delivery d = after();
        assertEquals(TransportStatus.NOT_RECEIVED, d.transportStatus());
        assertEquals(RoutingStatus.ROUTED, d.routingStatus());
        assertFalse(d.isMisdirected());
        assertEquals(Optional.of(day(25)), d.eta());
        assertEquals(Optional.of(HandlingActivity.onLand(RECEIVE, SHANGHAI)), d.nextExpectedActivity());
        assertTrue(d.lastKnownLocation().isEmpty());
    }

    @Test
    void onBoardWhileLoaded() {
        Delivery d = after(onLand(RECEIVE, SHANGHAI, 0), event(LOAD, SHANGHAI, V1, 1));
        assertEquals(TransportStatus.ONBOARD_CARRIER, d.transportStatus());
        assertEquals(Optional.of(V1), d.currentVoyage());
        assertEquals(Optional.of(SHANGHAI), d.lastKnownLocation());
        assertEquals(Optional.of(HandlingActivity.onVoyage(UNLOAD, HONG_KONG, V1)), d.nextExpectedActivity());
        assertEquals(Optional.of(day(1)), d.lastEventTime());
    }

    @Test
    void inPortAtTheTransferWaitingForTheNextVoyage() {
        Delivery d = after(onLand(RECEIVE, SHANGHAI, 0), event(LOAD, SHANGHAI, V1, 1), event(UNLOAD, HONG_KONG, V1, 3));
        assertEquals(TransportStatus.IN_PORT, d.transportStatus());
        assertTrue(d.currentVoyage().isEmpty());
        assertEquals(Optional.of(HandlingActivity.onVoyage(LOAD, HONG_KONG, V2)), d.nextExpectedActivity());
        assertFalse(d.isUnloadedAtDestination());
    }

    @Test
    void theLatestCompletedEventCountsNotTheLatestReported() {
        Delivery d = after(event(UNLOAD, HONG_KONG, V1, 3), onLand(RECEIVE, SHANGHAI, 0), event(LOAD, SHANGHAI, V1, 1));
        assertEquals(Optional.of(HONG_KONG), d.lastKnownLocation());
    }

    @Test
    void unloadedAtDestinationThenClaimed() {
        Delivery arrived = after(event(LOAD, HONG_KONG, V2, 4), event(UNLOAD, ROTTERDAM, V2, 25));
        assertTrue(arrived.isUnloadedAtDestination());
        assertEquals(Optional.of(HandlingActivity.onLand(CLAIM, ROTTERDAM)), arrived.nextExpectedActivity());

        Delivery claimed = after(event(UNLOAD, ROTTERDAM, V2, 25), onLand(CLAIM, ROTTERDAM, 26));
        assertEquals(TransportStatus.CLAIMED, claimed.transportStatus());
        assertTrue(claimed.nextExpectedActivity().isEmpty());
        assertFalse(claimed.isMisdirected());
    }

    @Test
    void unloadedSomewhereUnplannedIsMisdirectedWithNoEtaOrNextStep() {
        Delivery d = after(event(LOAD, SHANGHAI, V1, 1), event(UNLOAD, SINGAPORE, V1, 5));
        assertTrue(d.isMisdirected());
        assertFalse(d.isOnTrack());
        assertTrue(d.eta().isEmpty());
        assertTrue(d.nextExpectedActivity().isEmpty());
        assertEquals(Optional.of(SINGAPORE), d.lastKnownLocation());
        assertEquals(RoutingStatus.ROUTED, d.routingStatus(), "the plan is still valid, the cargo strayed from it");
    }

    @Test
    void withoutItineraryItIsNotRoutedAndNothingIsExpected() {
        Delivery d = Delivery.derivedFrom(spec, Itinerary.EMPTY, new HandlingHistory(List.of(onLand(RECEIVE, SHANGHAI, 0))), day(1));
        assertEquals(RoutingStatus.NOT_ROUTED, d.routingStatus());
        assertEquals(TransportStatus.IN_PORT, d.transportStatus());
        assertFalse(d.isMisdirected());
        assertTrue(d.eta().isEmpty());
        assertTrue(d.nextExpectedActivity().isEmpty());
    }

    @Test
    void aRouteThatNoLongerSatisfiesTheRequestIsMisrouted() {
        RouteSpecification toHamburg = spec.withDestination(HAMBURG);
        Delivery d = Delivery.derivedFrom(toHamburg, itinerary, HandlingHistory.EMPTY, day(0));
        assertEquals(RoutingStatus.MISROUTED, d.routingStatus());
        assertTrue(d.eta().isEmpty());
    }

    @Test
    void reroutingKeepsTheLastEventAndJudgesItAgainstTheNewPlan() {
        Delivery stranded = after(event(LOAD, SHANGHAI, V1, 1), event(UNLOAD, SINGAPORE, V1, 5));
        Itinerary fromSingapore = new Itinerary(List.of(leg(V3, SINGAPORE, ROTTERDAM, 8, 28)));
        Delivery rerouted = stranded.updatedOnRouting(spec.from(SINGAPORE), fromSingapore, day(6));
        assertFalse(rerouted.isMisdirected());
        assertEquals(RoutingStatus.ROUTED, rerouted.routingStatus());
        assertEquals(Optional.of(SINGAPORE), rerouted.lastKnownLocation());
        assertEquals(Optional.of(day(28)), rerouted.eta());
        assertEquals(Optional.of(HandlingActivity.onVoyage(LOAD, SINGAPORE, V3)), rerouted.nextExpectedActivity());
        assertEquals(day(6), rerouted.calculatedAt());
    }
}
