package dev.loomlab.cargotracker.domain.cargo;

import static dev.loomlab.cargotracker.domain.Fixtures.*;
import static dev.loomlab.cargotracker.domain.handling.HandlingEventType.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomlab.cargotracker.domain.handling.HandlingHistory;
import dev.loomlab.cargotracker.domain.shared.DomainException;
import java.time.LocalDate;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CargoTest {

    private final RouteSpecification spec = new RouteSpecification(SHANGHAI, ROTTERDAM, LocalDate.of(2030, 4, 30));
    private final Itinerary route = new Itinerary(List.of(leg(V1, SHANGHAI, HONG_KONG, 1, 3), leg(V2, HONG_KONG, ROTTERDAM, 4, 25)));

    @Test
    void aNewCargoIsNotRoutedAndNotReceived() {
        Cargo cargo = new Cargo(CARGO, spec, day(0));
        assertEquals(RoutingStatus.NOT_ROUTED, cargo.delivery().routingStatus());
        assertEquals(TransportStatus.NOT_RECEIVED, cargo.delivery().transportStatus());
        assertTrue(cargo.itinerary().isEmpty());
        assertEquals(SHANGHAI, cargo.origin());
    }

    @Test
    void assigningARouteRoutesIt() {
        Cargo cargo = new Cargo(CARGO, spec, day(0));
        cargo.assignToRoute(route, day(0));
        assertEquals(RoutingStatus.ROUTED, cargo.delivery().routingStatus());
        assertEquals(route, cargo.itinerary());
    }

    @Test
    void changingTheDestinationMisroutesItUntilItIsRoutedAgain() {
        Cargo cargo = new Cargo(CARGO, spec, day(0));
        cargo.assignToRoute(route, day(0));
        cargo.specifyNewRoute(spec.withDestination(HAMBURG), day(1));
        assertEquals(RoutingStatus.MISROUTED, cargo.delivery().routingStatus());
        assertEquals(SHANGHAI, cargo.origin(), "the booked origin does not change");
    }

    @Test
    void deliveryFollowsTheHistory() {
        Cargo cargo = new Cargo(CARGO, spec, day(0));
        cargo.assignToRoute(route, day(0));
        cargo.deriveDeliveryProgress(new HandlingHistory(List.of(onLand(RECEIVE, SHANGHAI, 0), event(LOAD, SHANGHAI, V1, 1))), day(1));
        assertEquals(TransportStatus.ONBOARD_CARRIER, cargo.delivery().transportStatus());
    }

    @Test
    void trackingIdsAreCheckedAndFreshOnesDiffer() {
        assertThrows(DomainException.class, () -> new TrackingId("ab"));
        assertThrows(DomainException.class, () -> new TrackingId("ABC-123"));
        assertEquals(new TrackingId("ABC123"), TrackingId.parse(" abc123 "));
        Set<TrackingId> ids = new HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            ids.add(TrackingId.random());
        }
        assertEquals(10_000, ids.size());
    }
}
