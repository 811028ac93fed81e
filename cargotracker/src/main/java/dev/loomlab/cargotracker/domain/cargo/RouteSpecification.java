package dev.loomlab.cargotracker.domain.cargo;

import dev.loomlab.cargotracker.domain.location.UnLocode;
import dev.loomlab.cargotracker.domain.shared.DomainException;
import dev.loomlab.cargotracker.domain.shared.Specification;
import jakarta.persistence.Basic;
import jakarta.persistence.Column;
import jakarta.persistence.Embeddable;
import java.time.LocalDate;
import java.util.Objects;

/**
 * What the customer asked for: from here, to there, arriving by the end of the deadline day. An
 * itinerary satisfies it when it starts at the origin, ends at the destination and arrives in time.
 */
@Embeddable
public class RouteSpecification implements Specification<Itinerary> {

    @Basic
    @Column(name = "spec_origin", length = 5, nullable = false)
    private UnLocode origin;

    @Basic
    @Column(name = "spec_destination", length = 5, nullable = false)
    private UnLocode destination;

    @Column(name = "spec_arrival_deadline", nullable = false)
    private LocalDate arrivalDeadline;

    protected RouteSpecification() {
        // for JPA
    }

    public RouteSpecification(UnLocode origin, UnLocode destination, LocalDate arrivalDeadline) {
        Objects.requireNonNull(origin, "origin");
        Objects.requireNonNull(destination, "destination");
        if (arrivalDeadline == null) {
            throw new DomainException("arrivalDeadline", "An arrival deadline is required.");
        }
        if (origin.equals(destination)) {
            throw new DomainException("destination", "Origin and destination are both " + origin + ": a cargo must go somewhere.");
        }
        this.origin = origin;
        this.destination = destination;
        this.arrivalDeadline = arrivalDeadline;
    }

    /** A new customer request, which may not ask for a deadline that has already passed. */
    public static RouteSpecification forBooking(UnLocode origin, UnLocode destination, LocalDate deadline, LocalDate today) {
        requireFuture(deadline, today);
        return new RouteSpecification(origin, destination, deadline);
    }

    public RouteSpecification withDestination(UnLocode newDestination) {
        return new RouteSpecification(origin(), newDestination, arrivalDeadline);
    }

    /** The same request with another deadline, which may not lie in the past. */
    public RouteSpecification withDeadline(LocalDate newDeadline, LocalDate today) {
        requireFuture(newDeadline, today);
        return new RouteSpecification(origin(), destination(), newDeadline);
    }

    /** The rest of the journey from where the cargo stands now: used when re-routing. */
    public RouteSpecification from(UnLocode currentLocation) {
        return currentLocation.equals(origin()) ? this : new RouteSpecification(currentLocation, destination(), arrivalDeadline);
    }

    private static void requireFuture(LocalDate deadline, LocalDate today) {
        if (deadline != null && deadline.isBefore(today)) {
            throw new DomainException("arrivalDeadline", "The arrival deadline " + deadline + " is in the past (today is " + today + ").");
        }
    }

    public UnLocode origin() {
        return origin;
    }

    public UnLocode destination() {
        return destination;
    }

    public LocalDate arrivalDeadline() {
        return arrivalDeadline;
    }

    @Override
    public boolean isSatisfiedBy(Itinerary itinerary) {
        return !itinerary.isEmpty() && startsAtOrigin().and(endsAtDestination()).and(arrivesInTime()).isSatisfiedBy(itinerary);
    }

    Specification<Itinerary> startsAtOrigin() {
        return itinerary -> itinerary.initialDeparture().equals(origin());
    }

    Specification<Itinerary> endsAtDestination() {
        return itinerary -> itinerary.finalArrival().equals(destination());
    }

    Specification<Itinerary> arrivesInTime() {
        return itinerary -> !itinerary.finalArrivalTime().toLocalDate().isAfter(arrivalDeadline);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof RouteSpecification spec && origin.equals(spec.origin)
                && destination.equals(spec.destination) && arrivalDeadline.equals(spec.arrivalDeadline);
    }

    @Override
    public int hashCode() {
        return Objects.hash(origin, destination, arrivalDeadline);
    }

    @Override
    public String toString() {
        return origin + " -> " + destination + " by " + arrivalDeadline;
    }
}
