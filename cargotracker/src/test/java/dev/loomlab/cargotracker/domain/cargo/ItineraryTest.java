package dev.loomlab.cargotracker.domain.cargo;

import static dev.loomlab.cargotracker.domain.Fixtures.*;
import static dev.loomlab.cargotracker.domain.handling.HandlingEventType.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomlab.cargotracker.domain.handling.HandlingActivity;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ItineraryTest {

    /** Shanghai -V1-> Hong Kong -V2-> Rotterdam -V3-> New York. */
    private final Itinerary itinerary = new Itinerary(List.of(
            leg(V1, SHANGHAI, HONG_KONG, 1, 3),
            leg(V2, HONG_KONG, ROTTERDAM, 4, 25),
            leg(V3, ROTTERDAM, NEW_YORK, 26, 35)));

    @Test
    void expectsTheHandlingItPlans() {
        assertTrue(itinerary.isExpected(HandlingActivity.onLand(RECEIVE, SHANGHAI)));
        assertTrue(itinerary.isExpected(HandlingActivity.onVoyage(LOAD, SHANGHAI, V1)));
        assertTrue(itinerary.isExpected(HandlingActivity.onVoyage(UNLOAD, HONG_KONG, V1)));
        assertTrue(itinerary.isExpected(HandlingActivity.onVoyage(LOAD, HONG_KONG, V2)));
        assertTrue(itinerary.isExpected(HandlingActivity.onVoyage(UNLOAD, NEW_YORK, V3)));
        assertTrue(itinerary.isExpected(HandlingActivity.onLand(CLAIM, NEW_YORK)));
    }

    @Test
    void doesNotExpectHandlingOffThePlan() {
        assertFalse(itinerary.isExpected(HandlingActivity.onLand(RECEIVE, HONG_KONG)), "received at the wrong port");
        assertFalse(itinerary.isExpected(HandlingActivity.onVoyage(LOAD, SHANGHAI, V2)), "loaded onto the wrong voyage");
        assertFalse(itinerary.isExpected(HandlingActivity.onVoyage(UNLOAD, SINGAPORE, V2)), "unloaded at the wrong port");
        assertFalse(itinerary.isExpected(HandlingActivity.onVoyage(UNLOAD, ROTTERDAM, V1)), "right port, wrong voyage");
        assertFalse(itinerary.isExpected(HandlingActivity.onLand(CLAIM, ROTTERDAM)), "claimed before the destination");
    }

    @Test
    void customsNeverMisdirectsAndAnEmptyPlanExpectsAnything() {
        assertTrue(itinerary.isExpected(HandlingActivity.onLand(CUSTOMS, SINGAPORE)));
        assertTrue(Itinerary.EMPTY.isExpected(HandlingActivity.onVoyage(UNLOAD, SINGAPORE, V3)));
    }

    @Test
    void anUnloadWhereTheRouteBeginsIsExpectedForARerouteFromThere() {
        Itinerary reroute = new Itinerary(List.of(leg(V3, SINGAPORE, ROTTERDAM, 10, 30)));
        HandlingActivity strandedInSingapore = HandlingActivity.onVoyage(UNLOAD, SINGAPORE, V2);
        assertTrue(reroute.isExpected(strandedInSingapore));
        assertEquals(Optional.of(HandlingActivity.onVoyage(LOAD, SINGAPORE, V3)), reroute.activityAfter(strandedInSingapore));
    }

    @Test
    void knowsWhatComesNext() {
        assertEquals(Optional.of(HandlingActivity.onLand(RECEIVE, SHANGHAI)), itinerary.firstActivity());
        assertEquals(Optional.of(HandlingActivity.onVoyage(LOAD, SHANGHAI, V1)),
                itinerary.activityAfter(HandlingActivity.onLand(RECEIVE, SHANGHAI)));
        assertEquals(Optional.of(HandlingActivity.onVoyage(UNLOAD, HONG_KONG, V1)),
                itinerary.activityAfter(HandlingActivity.onVoyage(LOAD, SHANGHAI, V1)));
        assertEquals(Optional.of(HandlingActivity.onVoyage(LOAD, HONG_KONG, V2)),
                itinerary.activityAfter(HandlingActivity.onVoyage(UNLOAD, HONG_KONG, V1)));
        assertEquals(Optional.of(HandlingActivity.onLand(CLAIM, NEW_YORK)),
                itinerary.activityAfter(HandlingActivity.onVoyage(UNLOAD, NEW_YORK, V3)));
        assertEquals(Optional.empty(), itinerary.activityAfter(HandlingActivity.onLand(CLAIM, NEW_YORK)));
    }

    @Test
    void knowsItsEnds() {
        assertEquals(SHANGHAI, itinerary.initialDeparture());
        assertEquals(NEW_YORK, itinerary.finalArrival());
        assertEquals(day(35), itinerary.finalArrivalTime());
    }

    @Test
    void refusesLegsThatDoNotConnectInPlaceOrTime() {
        assertThrows(IllegalArgumentException.class, () -> new Itinerary(List.of(
                leg(V1, SHANGHAI, HONG_KONG, 1, 3), leg(V2, SINGAPORE, ROTTERDAM, 4, 25))));
        assertThrows(IllegalArgumentException.class, () -> new Itinerary(List.of(
                leg(V1, SHANGHAI, HONG_KONG, 1, 3), leg(V2, HONG_KONG, ROTTERDAM, 2, 25))));
    }
}
