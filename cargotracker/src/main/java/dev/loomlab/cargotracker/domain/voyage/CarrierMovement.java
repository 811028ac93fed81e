package dev.loomlab.cargotracker.domain.voyage;

import dev.loomlab.cargotracker.domain.location.UnLocode;
import jakarta.persistence.Basic;
import jakarta.persistence.Column;
import jakarta.persistence.Embeddable;
import java.time.LocalDateTime;
import java.util.Objects;

/** One hop of a vessel (or train): from a departure location at a time to an arrival location. */
@Embeddable
public class CarrierMovement {

    @Basic
    @Column(name = "departure_location", length = 5, nullable = false)
    private UnLocode departureLocation;

    @Basic
    @Column(name = "arrival_location", length = 5, nullable = false)
    private UnLocode arrivalLocation;

    @Column(name = "departure_time", nullable = false)
    private LocalDateTime departureTime;

    @Column(name = "arrival_time", nullable = false)
    private LocalDateTime arrivalTime;

    protected CarrierMovement() {
        // for JPA
    }

    public CarrierMovement(UnLocode from, UnLocode to, LocalDateTime departure, LocalDateTime arrival) {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        Objects.requireNonNull(departure, "departure");
        Objects.requireNonNull(arrival, "arrival");
        if (from.equals(to)) {
            throw new IllegalArgumentException("a carrier movement must go somewhere: both ends are " + from);
        }
        if (!arrival.isAfter(departure)) {
            throw new IllegalArgumentException("a carrier movement arrives after it departs: " + departure + " -> " + arrival);
        }
        this.departureLocation = from;
        this.arrivalLocation = to;
        this.departureTime = departure;
        this.arrivalTime = arrival;
    }

    public UnLocode departureLocation() {
        return departureLocation;
    }

    public UnLocode arrivalLocation() {
        return arrivalLocation;
    }

    public LocalDateTime departureTime() {
        return departureTime;
    }

    public LocalDateTime arrivalTime() {
        return arrivalTime;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof CarrierMovement m && departureLocation.equals(m.departureLocation)
                && arrivalLocation.equals(m.arrivalLocation) && departureTime.equals(m.departureTime)
                && arrivalTime.equals(m.arrivalTime);
    }

    @Override
    public int hashCode() {
        return Objects.hash(departureLocation, arrivalLocation, departureTime, arrivalTime);
    }

    @Override
    public String toString() {
        return departureLocation + " " + departureTime + " -> " + arrivalLocation + " " + arrivalTime;
    }
}
