package dev.loomlab.cargotracker.interfaces.sse;

import dev.loomlab.cargotracker.interfaces.rest.ErrorJson;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.sse.Sse;
import jakarta.ws.rs.sse.SseEventSink;

/**
 * {@code GET /api/cargo/updates}: a Server-Sent Events stream with one "cargo" event (JSON) per
 * booking, routing, change or inspection, after it committed. At most
 * {@value CargoUpdateBroadcaster#MAX_SUBSCRIBERS} streams at once; beyond, 503 with Retry-After.
 */
@Path("cargo/updates")
@RequestScoped
public class CargoUpdatesResource {

    @Inject
    CargoUpdateBroadcaster broadcaster;

    @GET
    @Produces(MediaType.SERVER_SENT_EVENTS)
    public void subscribe(@Context SseEventSink sink, @Context Sse sse) {
        if (!broadcaster.register(sink, sse)) {
            Response busy = Response.fromResponse(ErrorJson.response(Response.Status.SERVICE_UNAVAILABLE, "subscribers",
                            "At most " + CargoUpdateBroadcaster.MAX_SUBSCRIBERS + " update streams are open at once; try again later."))
                    .header(HttpHeaders.RETRY_AFTER, 30).build();
            throw new WebApplicationException(busy);
        }
    }
}
