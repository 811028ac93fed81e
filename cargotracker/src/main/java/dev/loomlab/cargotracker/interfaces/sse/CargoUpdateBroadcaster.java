package dev.loomlab.cargotracker.interfaces.sse;

import dev.loomlab.cargotracker.application.events.CargoUpdated;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.TransactionPhase;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.sse.Sse;
import jakarta.ws.rs.sse.SseBroadcaster;
import jakarta.ws.rs.sse.SseEventSink;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Fans committed cargo updates out to every open SSE stream. Only committed changes are sent: a
 * listener must never see a booking that was rolled back.
 */
@ApplicationScoped
public class CargoUpdateBroadcaster {

    /**
     * Open streams at most: each holds a connection (and, on a platform-thread pool, nothing else,
     * but an unbounded number of idle streams is still an easy way to exhaust file descriptors).
     */
    public static final int MAX_SUBSCRIBERS = 200;

    private final AtomicLong eventIds = new AtomicLong();
    // A client that went away is noticed (and its place freed) when the next update fails to reach it.
    private final Set<SseEventSink> subscribers = ConcurrentHashMap.newKeySet();
    private volatile Sse sse;
    private volatile SseBroadcaster broadcaster;

    /**
     * Adds a client, unless {@link #MAX_SUBSCRIBERS} streams are open already (false); the first one
     * brings the Sse factory the broadcaster is made from.
     */
    public synchronized boolean register(SseEventSink sink, Sse sse) {
        subscribers.removeIf(SseEventSink::isClosed);
        if (subscribers.size() >= MAX_SUBSCRIBERS) {
            return false;
        }
        if (broadcaster == null) {
            this.sse = sse;
            this.broadcaster = sse.newBroadcaster();
            broadcaster.onClose(subscribers::remove);
            broadcaster.onError((gone, error) -> subscribers.remove(gone));
        }
        subscribers.add(sink);
        broadcaster.register(sink);
        // Tells the client the stream is live, so it can act knowing no later update will be missed.
        sink.send(sse.newEventBuilder().name("connected").data("listening for cargo updates").build());
        return true;
    }

    int subscriberCount() {
        return subscribers.size();
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
