package dev.loomlab.cargotracker.infrastructure.imports;

import dev.loomlab.cargotracker.application.handling.HandlingEventService;
import jakarta.batch.api.chunk.AbstractItemWriter;
import jakarta.batch.api.BatchProperty;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.List;

/**
 * Registers the accepted lines and records every line's outcome, in the chunk's transaction: a
 * chunk is written completely or not at all.
 */
@Named
@Dependent
public class HandlingImportWriter extends AbstractItemWriter {

    @Inject
    HandlingEventService handling;
    @Inject
    @BatchProperty(name = "importId")
    String importId;
    @PersistenceContext(unitName = "cargotracker")
    EntityManager em;

    @Override
    public void writeItems(List<Object> items) {
        for (Object item : items) {
            CheckedLine checked = (CheckedLine) item;
            if (checked.isAccepted()) {
                handling.register(checked.report());
                em.persist(ImportedLine.accepted(importId, checked.line()));
            } else {
                em.persist(ImportedLine.rejected(importId, checked.line(), checked.problem()));
            }
        }
    }
}
