package dev.loomlab.cargotracker.infrastructure.routing;

import dev.loomlab.cargotracker.domain.location.UnLocode;
import dev.loomlab.cargotracker.domain.voyage.CarrierMovement;
import dev.loomlab.cargotracker.domain.voyage.Voyage;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The time-expanded graph the search walks: for every port, the connections leaving it, sorted by
 * departure so that "what leaves here after 14:00" is a binary search, not a scan.
 */
final class VoyageNetwork {

    private final Map<UnLocode, List<Connection>> departuresByPort;

    private VoyageNetwork(Map<UnLocode, List<Connection>> departuresByPort) {
        this.departuresByPort = departuresByPort;
    }

    static VoyageNetwork of(Collection<Voyage> voyages) {
        Map<UnLocode, List<Connection>> byPort = new HashMap<>();
        for (Voyage voyage : voyages) {
            List<CarrierMovement> movements = voyage.schedule().movements();
            for (int board = 0; board < movements.size(); board++) {
                CarrierMovement boarding = movements.get(board);
                for (int leave = board; leave < movements.size(); leave++) {
                    CarrierMovement leaving = movements.get(leave);
                    if (leaving.arrivalLocation().equals(boarding.departureLocation())) {
                        continue; // a round trip back to where it was boarded goes nowhere
                    }
                    byPort.computeIfAbsent(boarding.departureLocation(), port -> new ArrayList<>())
                            .add(new Connection(voyage.voyageNumber(), boarding.departureLocation(),
                                    leaving.arrivalLocation(), boarding.departureTime(), leaving.arrivalTime()));
                }
            }
        }
        byPort.values().forEach(list -> list.sort(Comparator.comparing(Connection::departure)));
        return new VoyageNetwork(byPort);
    }

    /** Connections leaving {@code port} at or after {@code notBefore}, earliest first. */
    List<Connection> departingFrom(UnLocode port, LocalDateTime notBefore) {
        List<Connection> all = departuresByPort.getOrDefault(port, List.of());
        int low = 0;
        int high = all.size();
        while (low < high) {
            int middle = (low + high) >>> 1;
            if (all.get(middle).departure().isBefore(notBefore)) {
                low = middle + 1;
            } else {
                high = middle;
            }
        }
        return all.subList(low, all.size());
    }
}
