package dev.loomlab.app.contend;

import dev.loomlab.app.api.JsonBuilders;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * {@code GET /api/contend?holdMs=100&maxSpinMs=10000}: spins for the application's one
 * {@link SpinLock}, holds it while sleeping {@code holdMs}, releases it. Answers 200 with the time
 * spent spinning and holding, or 503 when the spin reached {@code maxSpinMs} without the lock.
 *
 * <p>{@code GET /api/contend?holdMs=100&lock=monitor}: waits for the application's one monitor
 * ({@code synchronized}) instead, and holds it while sleeping: the waiters block rather than spin, so
 * the JVM records them (JFR's contended monitor enters, which the lab's lock check reads) and no CPU
 * goes to waiting. Answers 200 with the time spent waiting and holding.
 *
 * <p>One instance for the application, so every request contends for the same lock.
 */
@ApplicationScoped
@Path("contend")
public class ContendResource {

    private final SpinLock lock = new SpinLock();
    private final Object monitor = new Object();

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Response contend(@QueryParam("holdMs") String holdMs, @QueryParam("maxSpinMs") String maxSpinMs,
                            @QueryParam("lock") String kind) throws InterruptedException {
        ContendRequest request = ContendRequest.parse(holdMs, maxSpinMs, kind);
        if (request.lock() == ContendRequest.Kind.MONITOR) {
            return onMonitor(request);
        }
        long start = System.nanoTime();
        boolean acquired = lock.acquire(request.maxSpinNanos());
        double spunMs = (System.nanoTime() - start) / 1_000_000.0;
        Thread thread = Thread.currentThread();
        var body = JsonBuilders.object()
                .add("virtual", thread.isVirtual())
                .add("thread", thread.getName())
                .add("spunMs", spunMs);
        if (!acquired) {
            return Response.status(Response.Status.SERVICE_UNAVAILABLE).type(MediaType.APPLICATION_JSON_TYPE)
                    .entity(body.add("error", "gave up after spinning " + request.maxSpinMs()
                            + " ms for the lock (maxSpinMs)").build())
                    .build();
        }
        try {
            // The holder parks here; the spinners wait for the flag it clears when it wakes.
            Thread.sleep(request.holdMs());
        } finally {
            lock.release();
        }
        return Response.ok(body.add("heldMs", request.holdMs()).build(), MediaType.APPLICATION_JSON_TYPE).build();
    }

    private Response onMonitor(ContendRequest request) throws InterruptedException {
        long start = System.nanoTime();
        double waitedMs;
        synchronized (monitor) {
            waitedMs = (System.nanoTime() - start) / 1_000_000.0;
            Thread.sleep(request.holdMs());
        }
        Thread thread = Thread.currentThread();
        return Response.ok(JsonBuilders.object()
                .add("virtual", thread.isVirtual())
                .add("thread", thread.getName())
                .add("waitedMs", waitedMs)
                .add("heldMs", request.holdMs())
                .build(), MediaType.APPLICATION_JSON_TYPE).build();
    }
}
