package dev.loomlab.cargotracker.domain.voyage;

import static dev.loomlab.cargotracker.domain.Fixtures.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ScheduleTest {

    @Test
    void builderChainsMovementsAndListsPortsInCallingOrder() {
        Schedule schedule = Schedule.departingFrom(SHANGHAI, day(0))
                .arriveAt(HONG_KONG, day(2), day(3))
                .endAt(SINGAPORE, day(6));
        assertEquals(List.of(SHANGHAI, HONG_KONG, SINGAPORE), schedule.portsOfCall());
        assertEquals(2, schedule.movements().size());
        assertEquals(day(3), schedule.last().departureTime());
        assertTrue(schedule.callsAt(HONG_KONG));
        assertFalse(schedule.callsAt(ROTTERDAM));
    }

    @Test
    void refusesMovementsThatDoNotConnect() {
        CarrierMovement first = new CarrierMovement(SHANGHAI, HONG_KONG, day(0), day(2));
        CarrierMovement elsewhere = new CarrierMovement(SINGAPORE, ROTTERDAM, day(3), day(20));
        assertThrows(IllegalArgumentException.class, () -> new Schedule(List.of(first, elsewhere)));
    }

    @Test
    void refusesLeavingBeforeArriving() {
        CarrierMovement first = new CarrierMovement(SHANGHAI, HONG_KONG, day(0), day(2));
        CarrierMovement tooEarly = new CarrierMovement(HONG_KONG, SINGAPORE, day(1), day(5));
        assertThrows(IllegalArgumentException.class, () -> new Schedule(List.of(first, tooEarly)));
    }

    @Test
    void refusesMovementsGoingNowhereOrBackInTime() {
        assertThrows(IllegalArgumentException.class, () -> new CarrierMovement(SHANGHAI, SHANGHAI, day(0), day(1)));
        assertThrows(IllegalArgumentException.class, () -> new CarrierMovement(SHANGHAI, HONG_KONG, day(2), day(1)));
        assertThrows(IllegalArgumentException.class, () -> new Schedule(List.of()));
    }
}
