package dev.loomlab.cargotracker.infrastructure.persistence;

import dev.loomlab.cargotracker.domain.location.Location;
import dev.loomlab.cargotracker.domain.location.LocationRepository;
import dev.loomlab.cargotracker.domain.location.UnLocode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.util.List;
import java.util.Optional;

@ApplicationScoped
public class JpaLocationRepository implements LocationRepository {

    @PersistenceContext(unitName = "cargotracker")
    EntityManager em;

    @Override
    public Optional<Location> find(UnLocode unLocode) {
        return Optional.ofNullable(em.find(Location.class, unLocode.code()));
    }

    /** Also called outside any transaction (the location catalog's reload): it then opens its own. */
    @Override
    @Transactional
    public List<Location> findAll() {
        return em.createQuery("select l from Location l order by l.name", Location.class).getResultList();
    }

    @Override
    public void store(Location location) {
        if (em.find(Location.class, location.unLocode().code()) == null) {
            em.persist(location);
        }
    }
}
