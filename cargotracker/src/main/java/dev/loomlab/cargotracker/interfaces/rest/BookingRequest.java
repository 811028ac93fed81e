package dev.loomlab.cargotracker.interfaces.rest;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Pattern;

/** {@code POST /api/cargo}: {"origin":"CNSHA","destination":"DEHAM","arrivalDeadline":"2026-01-31"}. */
public record BookingRequest(
        @NotBlank(message = "origin is required (a UN/LOCODE such as CNSHA)")
        @Pattern(regexp = Patterns.UN_LOCODE, message = Patterns.UN_LOCODE_MESSAGE)
        String origin,
        @NotBlank(message = "destination is required (a UN/LOCODE such as DEHAM)")
        @Pattern(regexp = Patterns.UN_LOCODE, message = Patterns.UN_LOCODE_MESSAGE)
        String destination,
        @NotBlank(message = "arrivalDeadline is required (a date such as 2026-01-31)")
        @Pattern(regexp = "\\d{4}-\\d{2}-\\d{2}", message = "arrivalDeadline must be a date as yyyy-mm-dd")
        String arrivalDeadline) {
}
