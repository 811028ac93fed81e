package dev.loomlab.cargotracker.domain.cargo;

import static dev.loomlab.cargotracker.domain.Fixtures.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomlab.cargotracker.domain.shared.DomainException;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;

class RouteSpecificationTest {

    private final Itinerary shanghaiToRotterdamViaHongKong = new Itinerary(List.of(
            leg(V1, SHANGHAI, HONG_KONG, 1, 3),
            leg(V2, HONG_KONG, ROTTERDAM, 4, 25)));
    private final LocalDate arrivalDay = day(25).toLocalDate();

    @Test
    void satisfiedByARouteFromOriginToDestinationArrivingOnTheDeadlineDay() {
        assertTrue(new RouteSpecification(SHANGHAI, ROTTERDAM, arrivalDay).isSatisfiedBy(shanghaiToRotterdamViaHongKong));
    }

    @Test
    void notSatisfiedWhenArrivingAfterTheDeadline() {
        assertFalse(new RouteSpecification(SHANGHAI, ROTTERDAM, arrivalDay.minusDays(1)).isSatisfiedBy(shanghaiToRotterdamViaHongKong));
    }

    @Test
    void notSatisfiedWhenStartingOrEndingElsewhere() {
        assertFalse(new RouteSpecification(HONG_KONG, ROTTERDAM, arrivalDay).isSatisfiedBy(shanghaiToRotterdamViaHongKong));
        assertFalse(new RouteSpecification(SHANGHAI, HAMBURG, arrivalDay).isSatisfiedBy(shanghaiToRotterdamViaHongKong));
    }

    @Test
    void neverSatisfiedByNoRouteAtAll() {
        assertFalse(new RouteSpecification(SHANGHAI, ROTTERDAM, arrivalDay).isSatisfiedBy(Itinerary.EMPTY));
    }

    @Test
    void theComposedRulesCanBeCheckedOneByOne() {
        RouteSpecification late = new RouteSpecification(SHANGHAI, ROTTERDAM, arrivalDay.minusDays(1));
        assertTrue(late.startsAtOrigin().isSatisfiedBy(shanghaiToRotterdamViaHongKong));
        assertTrue(late.endsAtDestination().isSatisfiedBy(shanghaiToRotterdamViaHongKong));
        assertFalse(late.arrivesInTime().isSatisfiedBy(shanghaiToRotterdamViaHongKong));
    }

    @Test
    void bookingRefusesADeadlineInThePastButAcceptsToday() {
        LocalDate today = LocalDate.of(2030, 3, 1);
        DomainException e = assertThrows(DomainException.class,
                () -> RouteSpecification.forBooking(SHANGHAI, ROTTERDAM, today.minusDays(1), today));
        assertEquals("arrivalDeadline", e.field());
        assertTrue(e.getMessage().contains("in the past"), e.getMessage());
        assertEquals(today, RouteSpecification.forBooking(SHANGHAI, ROTTERDAM, today, today).arrivalDeadline());
    }

    @Test
    void refusesGoingNowhere() {
        DomainException e = assertThrows(DomainException.class, () -> new RouteSpecification(SHANGHAI, SHANGHAI, arrivalDay));
        assertEquals("destination", e.field());
    }

    @Test
    void changesKeepTheRestOfTheRequest() {
        RouteSpecification spec = new RouteSpecification(SHANGHAI, ROTTERDAM, arrivalDay);
        assertEquals(new RouteSpecification(SHANGHAI, HAMBURG, arrivalDay), spec.withDestination(HAMBURG));
        assertEquals(new RouteSpecification(HONG_KONG, ROTTERDAM, arrivalDay), spec.from(HONG_KONG));
        assertEquals(spec, spec.from(SHANGHAI));
        assertThrows(DomainException.class, () -> spec.withDeadline(arrivalDay.minusDays(30), arrivalDay));
    }
}
