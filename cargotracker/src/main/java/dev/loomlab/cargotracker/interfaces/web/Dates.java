package dev.loomlab.cargotracker.interfaces.web;

import dev.loomlab.cargotracker.domain.shared.DomainException;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;

/** Dates as HTML date inputs send them (yyyy-mm-dd), with a readable message when they are not. */
public final class Dates {

    private Dates() {
    }

    public static LocalDate parseDay(String field, String text) {
        if (text == null || text.isBlank()) {
            throw new DomainException(field, "Choose a date.");
        }
        try {
            return LocalDate.parse(text.strip());
        } catch (DateTimeParseException e) {
            throw new DomainException(field, "'" + text + "' is not a date; use yyyy-mm-dd.");
        }
    }
}
