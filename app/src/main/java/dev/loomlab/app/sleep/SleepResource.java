package dev.loomlab.app.sleep;

import dev.loomlab.api.SleepGauge;
import dev.loomlab.api.SleepRequest;
import dev.loomlab.api.Slept;
import dev.loomlab.app.api.JsonBuilders;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code GET /api/sleep?ms=100&depth=100}: blocks the request thread, as a call to a slow
 * database or service would, then says which thread served it.
 *
 * <p>One instance for the application: the resource holds no per-request state, and a new CDI
 * instance per request cost ~10 % of the server's CPU per request in the profile (docs/results/virtual-pool-performance.md).
 */
@ApplicationScoped
@Path("sleep")
public class SleepResource {

    @Inject
    SleepGauge gauge;

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public JsonObject sleep(@QueryParam("ms") String ms, @QueryParam("min") String min,
                            @QueryParam("max") String max, @QueryParam("depth") String depth) throws InterruptedException {
        Slept slept = Slept.block(SleepRequest.parse(ms, min, max, depth), gauge);
        return JsonBuilders.object()
                .add("virtual", slept.virtual())
                .add("thread", slept.thread())
                .add("sleptMs", slept.sleptMs())
                .add("depth", slept.depth())
                .build();
    }
}
