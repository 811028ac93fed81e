package dev.loomlab.cargotracker.interfaces.sse;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.sse.Sse;
import jakarta.ws.rs.sse.SseEventSink;

/**
 * {@code GET /api/cargo/updates}: a Server-Sent Events stream with one "cargo" event (JSON) per
 * booking, routing, change or inspection, after it committed.
 */
@Path("cargo/updates")
@RequestScoped
public class CargoUpdatesResource {

    @Inject
    CargoUpdateBroadcaster broadcaster;

    @GET
    @Produces(MediaType.SERVER_SENT_EVENTS)
    public void subscribe(@Context SseEventSink sink, @Context Sse sse) {
        broadcaster.register(sink, sse);
    }
}
