package dev.loomlab.cargotracker.domain.voyage;

import dev.loomlab.cargotracker.domain.location.UnLocode;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A voyage's timetable: carrier movements that chain up, each leaving from where the previous one
 * arrived and not before it arrived.
 */
public record Schedule(List<CarrierMovement> movements) {

    public Schedule {
        Objects.requireNonNull(movements, "movements");
        if (movements.isEmpty()) {
            throw new IllegalArgumentException("a schedule has at least one carrier movement");
        }
        movements = List.copyOf(movements);
        for (int i = 1; i < movements.size(); i++) {
            CarrierMovement previous = movements.get(i - 1);
            CarrierMovement next = movements.get(i);
            if (!next.departureLocation().equals(previous.arrivalLocation())) {
                throw new IllegalArgumentException("movement " + i + " leaves " + next.departureLocation()
                        + " but the previous one arrived at " + previous.arrivalLocation());
            }
            if (next.departureTime().isBefore(previous.arrivalTime())) {
                throw new IllegalArgumentException("movement " + i + " leaves before the vessel arrives: " + next);
            }
        }
    }

    /** The ports in calling order, the first departure included. */
    public List<UnLocode> portsOfCall() {
        List<UnLocode> ports = new ArrayList<>();
        ports.add(movements.get(0).departureLocation());
        movements.forEach(m -> ports.add(m.arrivalLocation()));
        return ports;
    }

    public boolean callsAt(UnLocode port) {
        return portsOfCall().contains(port);
    }

    public CarrierMovement first() {
        return movements.get(0);
    }

    public CarrierMovement last() {
        return movements.get(movements.size() - 1);
    }

    /** Builds a schedule port by port, the way timetables are written down. */
    public static Builder departingFrom(UnLocode port, java.time.LocalDateTime departure) {
        return new Builder(port, departure);
    }

    public static final class Builder {
        private final List<CarrierMovement> movements = new ArrayList<>();
        private UnLocode port;
        private java.time.LocalDateTime departure;

        private Builder(UnLocode port, java.time.LocalDateTime departure) {
            this.port = port;
            this.departure = departure;
        }

        /** Sails to {@code next}, arriving at {@code arrival}, and leaves again at {@code nextDeparture}. */
        public Builder arriveAt(UnLocode next, java.time.LocalDateTime arrival, java.time.LocalDateTime nextDeparture) {
            movements.add(new CarrierMovement(port, next, departure, arrival));
            port = next;
            departure = nextDeparture;
            return this;
        }

        /** The final port of the voyage. */
        public Schedule endAt(UnLocode last, java.time.LocalDateTime arrival) {
            movements.add(new CarrierMovement(port, last, departure, arrival));
            return new Schedule(movements);
        }
    }
}
