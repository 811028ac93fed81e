package dev.loomlab.cargotracker.infrastructure.persistence;

import dev.loomlab.cargotracker.domain.cargo.Cargo;
import dev.loomlab.cargotracker.domain.cargo.CargoRepository;
import dev.loomlab.cargotracker.domain.cargo.TrackingId;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.Optional;

@ApplicationScoped
public class JpaCargoRepository implements CargoRepository {

    @PersistenceContext(unitName = "cargotracker")
    EntityManager em;

    @Override
    public Optional<Cargo> find(TrackingId trackingId) {
        return Optional.ofNullable(em.find(Cargo.class, trackingId.id()));
    }

    @Override
    public void store(Cargo cargo) {
        if (em.contains(cargo)) {
            return;
        }
        if (em.find(Cargo.class, cargo.trackingId().id()) == null) {
            em.persist(cargo);
        } else {
            em.merge(cargo);
        }
    }

    @Override
    public long count() {
        return em.createQuery("select count(c) from Cargo c", Long.class).getSingleResult();
    }
}
