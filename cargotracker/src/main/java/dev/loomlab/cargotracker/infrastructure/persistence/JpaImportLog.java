package dev.loomlab.cargotracker.infrastructure.imports;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.util.List;
import java.util.Optional;

/** Reads and writes the import records; its own bean so that each write is its own transaction. */
@ApplicationScoped
public class HandlingImportLog {

    @PersistenceContext(unitName = "cargotracker")
    EntityManager em;

    @Transactional
    public void record(HandlingImport upload) {
        em.persist(upload);
    }

    @Transactional
    public Optional<HandlingImport> find(String importId) {
        return Optional.ofNullable(em.find(HandlingImport.class, importId));
    }

    @Transactional
    public long countLines(String importId, ImportedLine.Outcome outcome) {
        return em.createQuery("select count(l) from ImportedLine l where l.importId = :id and l.outcome = :outcome",
                Long.class).setParameter("id", importId).setParameter("outcome", outcome).getSingleResult();
    }

    @Transactional
    public List<ImportedLine> rejectedLines(String importId, int offset, int limit) {
        return em.createQuery("select l from ImportedLine l where l.importId = :id and l.outcome = :outcome "
                        + "order by l.lineNumber", ImportedLine.class)
                .setParameter("id", importId).setParameter("outcome", ImportedLine.Outcome.REJECTED)
                .setFirstResult(offset).setMaxResults(limit).getResultList();
    }
}
