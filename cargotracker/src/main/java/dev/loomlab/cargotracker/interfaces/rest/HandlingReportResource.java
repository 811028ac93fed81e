package dev.loomlab.cargotracker.interfaces.rest;

import dev.loomlab.cargotracker.application.handling.HandlingEventService;
import dev.loomlab.cargotracker.application.handling.HandlingReport;
import dev.loomlab.cargotracker.application.handling.HandlingReportParser;
import dev.loomlab.cargotracker.domain.handling.HandlingEvent;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.bind.annotation.JsonbPropertyOrder;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * Handling reports from the field. 202 Accepted: the event is stored, the cargo's delivery is
 * worked out asynchronously (follow it on {@code /api/cargo/updates} or re-read the cargo).
 */
@Path("handling/reports")
@RequestScoped
public class HandlingReportResource {

    /** The answer to a report: the stored event's id, its cargo and type. */
    @JsonbPropertyOrder({"eventId", "trackingId", "eventType"})
    public record Accepted(String eventId, String trackingId, String eventType) {
    }

    @Inject
    HandlingEventService handling;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response report(@NotNull(message = "a JSON body with completionTime, trackingId, eventType, unLocode "
            + "(and voyageNumber for LOAD and UNLOAD) is required") @Valid HandlingReportJson json) {
        HandlingReport report = HandlingReportParser.parse(json.completionTime, json.trackingId, json.eventType,
                json.unLocode, json.voyageNumber);
        HandlingEvent event = handling.register(report);
        return Response.accepted(new Accepted(event.id(), event.trackingId().id(), event.type().name())).build();
    }
}
