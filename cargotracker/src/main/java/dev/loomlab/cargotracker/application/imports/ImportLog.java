package dev.loomlab.cargotracker.application.imports;

import java.util.List;
import java.util.Optional;

/** The record of imports and of each line's outcome; the persistence layer keeps it. */
public interface ImportLog {

    /** Stores a new import, in a transaction of its own. */
    void record(HandlingImport upload);

    Optional<HandlingImport> find(String importId);

    /** Stores one line's outcome, in the caller's transaction (an import's chunk) when it has one. */
    void recordLine(ImportedLine line);

    long countLines(String importId, ImportedLine.Outcome outcome);

    /** One page of the rejected lines, by line number. */
    List<ImportedLine> rejectedLines(String importId, int offset, int limit);
}
