package dev.loomlab.cargotracker.infrastructure.persistence;

import dev.loomlab.cargotracker.application.imports.HandlingImport;
import dev.loomlab.cargotracker.application.imports.ImportLog;
import dev.loomlab.cargotracker.application.imports.ImportedLine;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.util.List;
import java.util.Optional;

/** The import records in JPA; its own bean so that each call outside a transaction is one. */
@ApplicationScoped
@Transactional
public class JpaImportLog implements ImportLog {

    @PersistenceContext(unitName = "cargotracker")
    EntityManager em;

    @Override
    public void record(HandlingImport upload) {
        em.persist(upload);
    }

    @Override
    public Optional<HandlingImport> find(String importId) {
        return Optional.ofNullable(em.find(HandlingImport.class, importId));
    }

    @Override
    public void recordLine(ImportedLine line) {
        em.persist(line);
    }

    @Override
    public long countLines(String importId, ImportedLine.Outcome outcome) {
        return em.createQuery("select count(l) from ImportedLine l where l.importId = :id and l.outcome = :outcome",
                Long.class).setParameter("id", importId).setParameter("outcome", outcome).getSingleResult();
    }

    @Override
    public List<ImportedLine> rejectedLines(String importId, int offset, int limit) {
        return em.createQuery("select l from ImportedLine l where l.importId = :id and l.outcome = :outcome "
                        + "order by l.lineNumber", ImportedLine.class)
                .setParameter("id", importId).setParameter("outcome", ImportedLine.Outcome.REJECTED)
                .setFirstResult(offset).setMaxResults(limit).getResultList();
    }
}
