package dev.loomlab.cargotracker.interfaces.imports;

import dev.loomlab.cargotracker.application.handling.HandlingEventService;
import dev.loomlab.cargotracker.application.imports.ImportLog;
import dev.loomlab.cargotracker.application.imports.ImportedLine;
import jakarta.batch.api.BatchProperty;
import jakarta.batch.api.chunk.AbstractItemWriter;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;
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
    @Inject
    ImportLog log;

    @Override
    public void writeItems(List<Object> items) {
        for (Object item : items) {
            CheckedLine checked = (CheckedLine) item;
            CsvLine line = checked.line();
            if (checked.isAccepted()) {
                handling.register(checked.report());
                log.recordLine(ImportedLine.accepted(importId, line.number(), line.text()));
            } else {
                log.recordLine(ImportedLine.rejected(importId, line.number(), line.text(), checked.problem()));
            }
        }
    }
}
