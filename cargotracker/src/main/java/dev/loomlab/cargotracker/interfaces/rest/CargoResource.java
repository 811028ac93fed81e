package dev.loomlab.cargotracker.interfaces.rest;

import dev.loomlab.cargotracker.application.booking.BookingService;
import dev.loomlab.cargotracker.application.queries.CargoQueries;
import dev.loomlab.cargotracker.domain.cargo.TrackingId;
import dev.loomlab.cargotracker.domain.cargo.UnknownCargoException;
import dev.loomlab.cargotracker.domain.location.UnLocode;
import dev.loomlab.cargotracker.domain.shared.DomainException;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.List;

/** Cargo as JSON: list, details, and booking. */
@Path("cargo")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class CargoResource {

    /** The answer to a booking: {@code {"trackingId":"..."}}. */
    public record Booked(String trackingId) {
    }

    @Inject
    CargoQueries queries;
    @Inject
    BookingService booking;

    @GET
    public List<CargoJson.Summary> list() {
        return queries.all().stream().map(CargoJson::summary).toList();
    }

    @GET
    @Path("{trackingId}")
    public CargoJson.Details details(@PathParam("trackingId") String trackingId) {
        TrackingId id = TrackingId.parse(trackingId);
        CargoQueries.Tracked tracked = queries.track(id).orElseThrow(() -> new UnknownCargoException(id));
        return CargoJson.details(tracked.cargo(), tracked.history());
    }

    /** Books a cargo; 201 with its tracking id and a Location header pointing at its details. */
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response book(@NotNull(message = "a JSON body {origin, destination, arrivalDeadline} is required")
                         @Valid BookingRequest request, @Context UriInfo uri) {
        TrackingId id = booking.bookNewCargo(UnLocode.parse(request.origin()), UnLocode.parse(request.destination()),
                parseDate(request.arrivalDeadline()));
        return Response.created(uri.getAbsolutePathBuilder().path(id.id()).build())
                .entity(new Booked(id.id()))
                .build();
    }

    private static LocalDate parseDate(String text) {
        try {
            return LocalDate.parse(text.strip());
        } catch (DateTimeParseException e) {
            throw new DomainException("arrivalDeadline", "'" + text + "' is not a calendar date (yyyy-mm-dd).");
        }
    }
}
