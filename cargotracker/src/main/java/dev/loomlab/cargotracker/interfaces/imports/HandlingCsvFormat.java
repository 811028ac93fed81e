package dev.loomlab.cargotracker.interfaces.imports;

import dev.loomlab.cargotracker.application.handling.HandlingReport;
import dev.loomlab.cargotracker.application.handling.HandlingReportParser;
import dev.loomlab.cargotracker.application.imports.ImportedLine;
import dev.loomlab.cargotracker.domain.shared.DomainException;
import java.util.Arrays;
import java.util.List;

/**
 * The CSV file format of handling imports: a header line naming the five columns, then one event
 * per line. Fields hold no commas, so no quoting; an empty voyage field means "no voyage".
 *
 * <pre>
 * completionTime,trackingId,eventType,unLocode,voyageNumber
 * 2025-11-24T14:30,LOOM0003,LOAD,JPTYO,TPE-251117
 * </pre>
 */
public final class HandlingCsvFormat {

    public static final List<String> COLUMNS = List.of("completionTime", "trackingId", "eventType", "unLocode", "voyageNumber");
    public static final String HEADER = String.join(",", COLUMNS);

    private HandlingCsvFormat() {
    }

    /** The header must name the columns in order; anything else means this is not our file. */
    public static void requireHeader(String firstLine) {
        String header = firstLine == null ? "" : firstLine.replace("\uFEFF", "").strip();
        List<String> names = Arrays.stream(header.split(",", -1)).map(String::strip).toList();
        if (!names.equals(COLUMNS)) {
            throw new DomainException("file", "The first line must be the header '" + HEADER + "', found '"
                    + ImportedLine.abbreviate(header, 80) + "'.");
        }
    }

    /**
     * The number of event lines (non-blank lines after the header) of a file whose header was
     * checked; refuses a file with none, or with more than {@code maxLines}: a 2 MB file of short
     * lines would otherwise become a million stored rows from one upload.
     */
    public static int requireEventLines(String[] lines, int maxLines) {
        int events = 0;
        for (int i = 1; i < lines.length; i++) {
            if (!lines[i].isBlank() && ++events > maxLines) {
                throw new DomainException("file", "The file has more than " + maxLines
                        + " event lines; at most " + maxLines + " per import: split it into smaller files.");
            }
        }
        if (events == 0) {
            throw new DomainException("file", "The file has a header but no event lines.");
        }
        return events;
    }

    public static HandlingReport parseLine(String line) {
        String[] fields = line.split(",", -1);
        if (fields.length < 4 || fields.length > 5) {
            throw new DomainException("line", "Expected " + COLUMNS.size() + " comma-separated fields ("
                    + HEADER + "), found " + fields.length + ".");
        }
        return HandlingReportParser.parse(fields[0], fields[1], fields[2], fields[3], fields.length == 5 ? fields[4] : null);
    }
}
