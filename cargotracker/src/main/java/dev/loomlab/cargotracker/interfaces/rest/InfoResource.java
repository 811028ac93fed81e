package dev.loomlab.cargotracker.interfaces.rest;

import dev.loomlab.api.ServerInfo;
import dev.loomlab.api.VirtualPoolMBeans;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import javax.management.JMException;

/**
 * {@code GET /api/info}: the lab app's info (lab-api's {@link ServerInfo}: pid, java, threads, the
 * thread serving this request, the virtual pool's counters) under {@code "app": "cargotracker"},
 * so ./lab can start, check and describe either WAR alike. No sleep endpoint here, so no
 * "sleeping" or "limits".
 */
@Path("info")
public class InfoResource {

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public String info() throws JMException {
        return ServerInfo.create().app("cargotracker").virtualPools(VirtualPoolMBeans.read()).toJson();
    }
}
