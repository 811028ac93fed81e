package dev.loomlab.cargotracker.interfaces.imports;

import dev.loomlab.cargotracker.application.handling.HandlingReport;

/** A line after checking: a report ready to register, or the reason it cannot be. */
record CheckedLine(CsvLine line, HandlingReport report, String problem) {

    static CheckedLine accepted(CsvLine line, HandlingReport report) {
        return new CheckedLine(line, report, null);
    }

    static CheckedLine rejected(CsvLine line, String problem) {
        return new CheckedLine(line, null, problem);
    }

    boolean isAccepted() {
        return report != null;
    }
}
