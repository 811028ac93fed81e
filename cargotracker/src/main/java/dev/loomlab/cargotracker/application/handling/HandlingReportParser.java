package dev.loomlab.cargotracker.application.handling;

import dev.loomlab.cargotracker.domain.cargo.TrackingId;
import dev.loomlab.cargotracker.domain.handling.HandlingEventType;
import dev.loomlab.cargotracker.domain.location.UnLocode;
import dev.loomlab.cargotracker.domain.shared.DomainException;
import dev.loomlab.cargotracker.domain.voyage.VoyageNumber;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * Turns the five texts of a handling report (from a form, a JSON body or a CSV line) into a
 * {@link HandlingReport}, or a {@link DomainException} naming the first bad field. One parser for
 * all three doors, so they accept and refuse exactly the same input.
 */
public final class HandlingReportParser {

    /** 2025-11-24T14:30, seconds optional; a space instead of the T is accepted too. */
    private static final DateTimeFormatter TIME = new DateTimeFormatterBuilder()
            .append(DateTimeFormatter.ISO_LOCAL_DATE)
            .optionalStart().appendLiteral('T').optionalEnd()
            .optionalStart().appendLiteral(' ').optionalEnd()
            .append(DateTimeFormatter.ISO_LOCAL_TIME)
            .toFormatter();

    private HandlingReportParser() {
    }

    public static HandlingReport parse(String completionTime, String trackingId, String eventType, String unLocode,
                                       String voyageNumber) {
        LocalDateTime time = parseTime(completionTime);
        TrackingId cargo = TrackingId.parse(trackingId);
        HandlingEventType type = parseType(eventType);
        UnLocode location = UnLocode.parse(unLocode);
        VoyageNumber voyage = voyageNumber == null || voyageNumber.isBlank() ? null : VoyageNumber.parse(voyageNumber);
        return new HandlingReport(time, cargo, type, location, voyage);
    }

    public static LocalDateTime parseTime(String text) {
        if (text == null || text.isBlank()) {
            throw new DomainException("completionTime", "A completion time is required (UTC, e.g. 2025-11-24T14:30).");
        }
        try {
            return LocalDateTime.parse(text.strip(), TIME);
        } catch (DateTimeParseException e) {
            throw new DomainException("completionTime", "'" + text + "' is not a completion time: use UTC date and time "
                    + "as 2025-11-24T14:30.");
        }
    }

    public static HandlingEventType parseType(String text) {
        HandlingEventType type = HandlingEventType.parseOrNull(text);
        if (type == null) {
            throw new DomainException("eventType", (text == null || text.isBlank() ? "An event type is required"
                    : "'" + text + "' is not an event type") + ": use one of " + allTypes() + ".");
        }
        return type;
    }

    private static String allTypes() {
        return Arrays.stream(HandlingEventType.values()).map(Enum::name).collect(Collectors.joining(", "));
    }
}
