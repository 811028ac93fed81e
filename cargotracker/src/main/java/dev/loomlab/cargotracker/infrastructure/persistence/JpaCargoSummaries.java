package dev.loomlab.cargotracker.infrastructure.persistence;

import dev.loomlab.cargotracker.application.queries.CargoSummaries;
import dev.loomlab.cargotracker.application.queries.CargoSummary;
import dev.loomlab.cargotracker.domain.cargo.RoutingStatus;
import dev.loomlab.cargotracker.domain.cargo.TransportStatus;
import dev.loomlab.cargotracker.domain.location.UnLocode;
import dev.loomlab.cargotracker.domain.voyage.VoyageNumber;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;

/**
 * Cargo lists as one projection query: no entities are built, so none of EclipseLink's object
 * building and its locks (with 1000 platform threads, building Cargo entities for the dashboard
 * stalled the server; the projection does not). The columns arrive already converted (places and
 * voyages as value objects), so the row is assembled here rather than by a constructor expression,
 * whose constructor EclipseLink would look up by the columns' declared types.
 */
@ApplicationScoped
public class JpaCargoSummaries implements CargoSummaries {

    private static final String QUERY = "select c.trackingId, "
            + "c.routeSpecification.origin, c.routeSpecification.destination, c.routeSpecification.arrivalDeadline, "
            + "c.bookedAt, c.delivery.transportStatus, c.delivery.routingStatus, c.delivery.misdirected, "
            + "c.delivery.unloadedAtDestination, c.delivery.eta, c.delivery.lastEventLocation, c.delivery.lastEventVoyage "
            + "from Cargo c order by c.bookedAt desc, c.trackingId";

    @PersistenceContext(unitName = "cargotracker")
    EntityManager em;

    @Override
    public List<CargoSummary> all() {
        return em.createQuery(QUERY, Object[].class).getResultList().stream().map(JpaCargoSummaries::summary).toList();
    }

    private static CargoSummary summary(Object[] row) {
        return new CargoSummary((String) row[0], (UnLocode) row[1], (UnLocode) row[2], (LocalDate) row[3],
                (LocalDateTime) row[4], (TransportStatus) row[5], (RoutingStatus) row[6], (Boolean) row[7],
                (Boolean) row[8], (LocalDateTime) row[9], (UnLocode) row[10], (VoyageNumber) row[11]);
    }
}
