package dev.loomlab.cargotracker.application.imports;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.util.UUID;

/**
 * What became of one line of an import: accepted, or rejected with the reason. Rejected lines are
 * kept with their text, so nothing a user uploaded is silently lost; they can be fixed and sent again.
 */
@Entity
@Table(name = "imported_line")
public class ImportedLine {

    public enum Outcome { ACCEPTED, REJECTED }

    private static final int MAX_TEXT = 1000;
    private static final int MAX_MESSAGE = 500;

    @Id
    @Column(length = 36)
    private String id;

    @Column(name = "import_id", length = 36, nullable = false)
    private String importId;

    @Column(name = "line_number", nullable = false)
    private int lineNumber;

    @Enumerated(EnumType.STRING)
    @Column(name = "outcome", length = 10, nullable = false)
    private Outcome outcome;

    @Column(name = "message", length = MAX_MESSAGE)
    private String message;

    @Column(name = "raw_line", length = MAX_TEXT, nullable = false)
    private String rawLine;

    protected ImportedLine() {
        // for JPA
    }

    private ImportedLine(String importId, int lineNumber, String text, Outcome outcome, String message) {
        this.id = UUID.randomUUID().toString();
        this.importId = importId;
        this.lineNumber = lineNumber;
        this.outcome = outcome;
        this.message = message == null ? null : abbreviate(message, MAX_MESSAGE);
        this.rawLine = abbreviate(text, MAX_TEXT);
    }

    public static ImportedLine accepted(String importId, int lineNumber, String text) {
        return new ImportedLine(importId, lineNumber, text, Outcome.ACCEPTED, null);
    }

    public static ImportedLine rejected(String importId, int lineNumber, String text, String reason) {
        return new ImportedLine(importId, lineNumber, text, Outcome.REJECTED, reason);
    }

    /** The text cut to {@code max} characters, "..." marking the cut: how long texts are kept and quoted. */
    public static String abbreviate(String text, int max) {
        return text.length() <= max ? text : text.substring(0, max - 3) + "...";
    }

    public int lineNumber() {
        return lineNumber;
    }

    public String message() {
        return message;
    }

    public String rawLine() {
        return rawLine;
    }
}
