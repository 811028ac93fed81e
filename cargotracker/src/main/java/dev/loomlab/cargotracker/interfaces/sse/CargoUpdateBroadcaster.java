package dev.loomlab.cargotracker.interfaces.sse;

import dev.loomlab.cargotracker.application.events.CargoUpdated;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.TransactionPhase;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.sse.Sse;
import jakarta.ws.rs.sse.SseBroadcaster;
import jakarta.ws.rs.sse.SseEventSink;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Fans committed cargo updates out to every open SSE stream. Only committed changes are sent: a
 * listener must never see a booking that was rolled back.
 */
@ApplicationScoped
public class CargoUpdateBroadcaster {

    private final AtomicLong eventIds = new AtomicLong();
    private volatile Sse sse;
    private volatile SseBroadcaster broadcaster;

    /** Adds a client; the first one brings the Sse factory the broadcaster is made from. */
    public synchronized void register(SseEventSink sink, Sse sse) {
        if (broadcaster == null) {
            this.sse = sse;
            this.broadcaster = sse.newBroadcaster();
        }
        broadcaster.register(sink);
        // Tells the client the stream is live, so it can act knowing no later update will be missed.
        sink.send(sse.newEventBuilder().name("connected").data("listening for cargo updates").build());
    }

    void onUpdate(@Observes(during = TransactionPhase.AFTER_SUCCESS) CargoUpdated update) {
        SseBroadcaster current = broadcaster;
        if (current == null) {
            return;
        }
        current.broadcast(sse.newEventBuilder()
                .name("cargo")
                .id(Long.toString(eventIds.incrementAndGet()))
                .mediaType(MediaType.APPLICATION_JSON_TYPE)
                .data(CargoUpdated.class, update)
                .build());
    }
}
