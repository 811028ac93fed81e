package dev.loomlab.cargotracker.infrastructure.persistence;

import dev.loomlab.cargotracker.domain.location.UnLocode;
import dev.loomlab.cargotracker.domain.voyage.Voyage;
import dev.loomlab.cargotracker.domain.voyage.VoyageNumber;
import dev.loomlab.cargotracker.domain.voyage.VoyageRepository;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Optional;

@ApplicationScoped
public class JpaVoyageRepository implements VoyageRepository {

    @PersistenceContext(unitName = "cargotracker")
    EntityManager em;

    @Override
    public Optional<Voyage> find(VoyageNumber number) {
        return Optional.ofNullable(em.find(Voyage.class, number.number()));
    }

    @Override
    public List<Voyage> findArrivingAfter(LocalDateTime time) {
        return em.createQuery("select distinct v from Voyage v join v.movements m where m.arrivalTime > :time",
                Voyage.class).setParameter("time", time).getResultList();
    }

    @Override
    public List<Voyage> findCallingAt(UnLocode port, LocalDateTime from, LocalDateTime to) {
        return em.createQuery("select distinct v from Voyage v join v.movements m where "
                        + "(m.departureLocation = :port and m.departureTime between :from and :to) or "
                        + "(m.arrivalLocation = :port and m.arrivalTime between :from and :to) "
                        + "order by v.voyageNumber", Voyage.class)
                .setParameter("port", port).setParameter("from", from).setParameter("to", to)
                .getResultList();
    }

    @Override
    public void store(Voyage voyage) {
        if (em.find(Voyage.class, voyage.voyageNumber().number()) == null) {
            em.persist(voyage);
        }
    }
}
