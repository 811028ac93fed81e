package dev.loomlab.cargotracker.interfaces.imports;

import java.util.List;

/**
 * Where an import stands: the job's status, the counts of accepted and rejected lines read so far,
 * and one page of the rejected lines ({@code rejectedLines}: at most {@code limit} from
 * {@code offset}, in line order; the next page starts at {@code offset + limit}).
 */
public record ImportReport(String importId, long executionId, String status, int accepted, int rejected,
                           int offset, int limit, List<RejectedLine> rejectedLines) {

    public record RejectedLine(int line, String text, String message) {
    }
}
