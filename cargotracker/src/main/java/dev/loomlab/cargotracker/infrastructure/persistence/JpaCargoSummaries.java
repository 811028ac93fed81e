package dev.loomlab.cargotracker.infrastructure.persistence;

import dev.loomlab.cargotracker.application.queries.CargoSummaries;
import dev.loomlab.cargotracker.application.queries.CargoSummary;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.List;

/**
 * Cargo lists as one projection query: no entities are built, so none of EclipseLink's object
 * building and its locks (with 1000 platform threads, building Cargo entities for the dashboard
 * stalled the server; the projection does not).
 */
@ApplicationScoped
public class JpaCargoSummaries implements CargoSummaries {

    private static final String QUERY = "select new " + CargoSummary.class.getName() + "(c.trackingId, "
            + "c.routeSpecification.origin, c.routeSpecification.destination, c.routeSpecification.arrivalDeadline, "
            + "c.bookedAt, c.delivery.transportStatus, c.delivery.routingStatus, c.delivery.misdirected, "
            + "c.delivery.unloadedAtDestination, c.delivery.eta, c.delivery.lastEventLocation, c.delivery.lastEventVoyage) "
            + "from Cargo c order by c.bookedAt desc, c.trackingId";

    @PersistenceContext(unitName = "cargotracker")
    EntityManager em;

    @Override
    public List<CargoSummary> all() {
        return em.createQuery(QUERY, CargoSummary.class).getResultList();
    }
}
