package dev.loomlab.app.info;

import dev.loomlab.api.ServerInfo;
import dev.loomlab.api.SleepGauge;
import dev.loomlab.api.VirtualPoolMBeans;
import dev.loomlab.app.fanout.FanoutExecutors;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import javax.management.JMException;

/**
 * {@code GET /api/info}: what this server really runs — JVM, processors, thread counts, the
 * thread serving this request, requests asleep, the limits, and the LoomLab virtual pool's
 * counters when one is installed (lab-api's {@link ServerInfo} names the fields).
 */
@Path("info")
public class InfoResource {

    @Inject
    SleepGauge sleepGauge;

    @Inject
    FanoutExecutors fanoutExecutors;

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public String info() throws JMException {
        return ServerInfo.create()
                .sleepGauge(sleepGauge)
                // The pool that platform requests' fan-out tasks share (virtual requests use a virtual thread per task).
                .fanoutPlatformThreads(fanoutExecutors.platformThreads())
                .virtualPools(VirtualPoolMBeans.read())
                .toJson();
    }
}
