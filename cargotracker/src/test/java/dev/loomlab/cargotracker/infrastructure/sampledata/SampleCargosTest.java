package dev.loomlab.cargotracker.infrastructure.sampledata;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomlab.cargotracker.domain.cargo.Cargo;
import dev.loomlab.cargotracker.domain.cargo.Delivery;
import dev.loomlab.cargotracker.domain.cargo.RoutingStatus;
import dev.loomlab.cargotracker.domain.cargo.TrackingId;
import dev.loomlab.cargotracker.domain.cargo.TransportStatus;
import dev.loomlab.cargotracker.domain.handling.HandlingEvent;
import dev.loomlab.cargotracker.domain.voyage.Voyage;
import dev.loomlab.cargotracker.domain.voyage.VoyageNumber;
import dev.loomlab.cargotracker.infrastructure.routing.NetworkRoutingService;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The sample data must show every state whatever the day the server first starts on. */
class SampleCargosTest {

    @ParameterizedTest(name = "first start {0} days after 2030-01-07")
    @ValueSource(ints = {0, 1, 2, 3, 4, 5, 6})
    void everyStateIsRepresentedOnEveryWeekday(int dayOffset) {
        LocalDateTime now = LocalDateTime.of(2030, 1, 7, 13, 30).plusDays(dayOffset);
        List<Voyage> timetable = SampleTimetable.voyagesAround(now.toLocalDate());
        Map<VoyageNumber, Voyage> byNumber = timetable.stream().collect(Collectors.toMap(Voyage::voyageNumber, Function.identity()));
        List<SampleCargos.Planned> planned = new SampleCargos(now,
                (spec, earliest) -> NetworkRoutingService.routesOn(timetable, spec, earliest),
                number -> Optional.ofNullable(byNumber.get(number))).plan();
        SampleCargos.deriveDeliveries(planned, now);
        Map<TrackingId, Delivery> deliveries = planned.stream()
                .collect(Collectors.toMap(p -> p.cargo().trackingId(), p -> p.cargo().delivery()));

        assertEquals(9, planned.size(), "one cargo per scenario: " + deliveries.keySet());
        assertEquals(RoutingStatus.NOT_ROUTED, deliveries.get(SampleCargos.NOT_ROUTED).routingStatus());
        assertState(deliveries.get(SampleCargos.ROUTED), TransportStatus.NOT_RECEIVED, RoutingStatus.ROUTED, false);
        assertState(deliveries.get(SampleCargos.RECEIVED), TransportStatus.IN_PORT, RoutingStatus.ROUTED, false);
        assertState(deliveries.get(SampleCargos.ON_BOARD), TransportStatus.ONBOARD_CARRIER, RoutingStatus.ROUTED, false);
        assertState(deliveries.get(SampleCargos.AT_TRANSFER), TransportStatus.IN_PORT, RoutingStatus.ROUTED, false);
        assertState(deliveries.get(SampleCargos.MISDIRECTED), TransportStatus.IN_PORT, RoutingStatus.ROUTED, true);
        assertState(deliveries.get(SampleCargos.ARRIVED), TransportStatus.IN_PORT, RoutingStatus.ROUTED, false);
        assertTrue(deliveries.get(SampleCargos.ARRIVED).isUnloadedAtDestination());
        assertState(deliveries.get(SampleCargos.CLAIMED), TransportStatus.CLAIMED, RoutingStatus.ROUTED, false);
        assertEquals(RoutingStatus.MISROUTED, deliveries.get(SampleCargos.MISROUTED).routingStatus());

        for (SampleCargos.Planned p : planned) {
            Cargo cargo = p.cargo();
            for (HandlingEvent event : p.events()) {
                assertFalse(event.completionTime().isAfter(now), cargo.trackingId() + " has an event in the future: " + event);
            }
            cargo.itinerary().legs().forEach(leg -> assertTrue(byNumber.containsKey(leg.voyage()), "unknown voyage " + leg));
        }
        Delivery waiting = deliveries.get(SampleCargos.AT_TRANSFER);
        assertTrue(waiting.nextExpectedActivity().orElseThrow().voyage() != null, "waits for a next voyage");
    }

    private static void assertState(Delivery delivery, TransportStatus transport, RoutingStatus routing, boolean misdirected) {
        assertEquals(transport, delivery.transportStatus(), delivery.toString());
        assertEquals(routing, delivery.routingStatus(), delivery.toString());
        assertEquals(misdirected, delivery.isMisdirected(), delivery.toString());
    }
}
