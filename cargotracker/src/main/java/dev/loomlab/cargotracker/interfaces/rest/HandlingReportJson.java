package dev.loomlab.cargotracker.interfaces.rest;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Pattern;

/**
 * {@code POST /api/handling/reports}: one event from the field, e.g.
 * {"completionTime":"2025-11-24T14:30","trackingId":"LOOM0003","eventType":"LOAD","unLocode":"JPTYO","voyageNumber":"TPE-251117"}.
 * Times are UTC. Formats are checked here; the rule that LOAD and UNLOAD (only) name a voyage, and
 * whether cargo, place and voyage exist, are checked by the domain with the same messages as the pages.
 */
public class HandlingReportJson {

    @NotBlank(message = "completionTime is required (UTC, e.g. 2025-11-24T14:30)")
    @Pattern(regexp = Patterns.TIME, message = "completionTime must be a UTC date and time such as 2025-11-24T14:30")
    public String completionTime;

    @NotBlank(message = "trackingId is required")
    @Pattern(regexp = Patterns.TRACKING_ID, message = "trackingId must be 4 to 16 letters and digits")
    public String trackingId;

    @NotBlank(message = "eventType is required: RECEIVE, LOAD, UNLOAD, CUSTOMS or CLAIM")
    @Pattern(regexp = Patterns.EVENT_TYPE, message = "eventType must be RECEIVE, LOAD, UNLOAD, CUSTOMS or CLAIM")
    public String eventType;

    @NotBlank(message = "unLocode is required (where it happened, e.g. NLRTM)")
    @Pattern(regexp = Patterns.UN_LOCODE, message = "unLocode " + Patterns.UN_LOCODE_MESSAGE)
    public String unLocode;

    @Pattern(regexp = Patterns.VOYAGE, message = "voyageNumber must be 2 to 20 letters, digits or dashes")
    public String voyageNumber;
}
