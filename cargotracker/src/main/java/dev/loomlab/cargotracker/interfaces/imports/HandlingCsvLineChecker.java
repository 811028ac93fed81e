package dev.loomlab.cargotracker.interfaces.imports;

import dev.loomlab.cargotracker.application.handling.HandlingEventService;
import dev.loomlab.cargotracker.application.handling.HandlingReport;
import dev.loomlab.cargotracker.domain.shared.DomainException;
import jakarta.batch.api.chunk.ItemProcessor;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

/**
 * Parses and checks a line with the same rules as the REST intake. A bad line is not an error of
 * the job: it becomes a rejected item, so the writer can record it and the good lines still go in.
 */
@Named
@Dependent
public class HandlingCsvLineChecker implements ItemProcessor {

    @Inject
    HandlingEventService handling;

    @Override
    public Object processItem(Object item) {
        CsvLine line = (CsvLine) item;
        try {
            HandlingReport report = HandlingCsvFormat.parseLine(line.text());
            handling.check(report);
            return CheckedLine.accepted(line, report);
        } catch (DomainException e) {
            return CheckedLine.rejected(line, e.getMessage());
        }
    }
}
