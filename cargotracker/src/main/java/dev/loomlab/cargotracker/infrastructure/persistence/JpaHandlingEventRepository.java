package dev.loomlab.cargotracker.infrastructure.persistence;

import dev.loomlab.cargotracker.domain.cargo.TrackingId;
import dev.loomlab.cargotracker.domain.handling.HandlingEvent;
import dev.loomlab.cargotracker.domain.handling.HandlingEventRepository;
import dev.loomlab.cargotracker.domain.handling.HandlingHistory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

@ApplicationScoped
public class JpaHandlingEventRepository implements HandlingEventRepository {

    @PersistenceContext(unitName = "cargotracker")
    EntityManager em;

    @Override
    public void store(HandlingEvent event) {
        em.persist(event);
    }

    @Override
    public HandlingHistory historyOf(TrackingId cargo) {
        // The parameter is the value object: JPA converts it like the attribute it is compared with.
        return new HandlingHistory(em.createQuery("select e from HandlingEvent e where e.trackingId = :id",
                HandlingEvent.class).setParameter("id", cargo).getResultList());
    }

    @Override
    public long count() {
        return em.createQuery("select count(e) from HandlingEvent e", Long.class).getSingleResult();
    }
}
