package dev.loomlab.cargotracker.infrastructure.imports;

import java.util.List;

/** Where an import stands: the job's status, and what became of the lines read so far. */
public record ImportReport(String importId, long executionId, String status, int accepted, int rejected, List<RejectedLine> rejectedLines) {

    public record RejectedLine(int line, String text, String message) {
    }
}
