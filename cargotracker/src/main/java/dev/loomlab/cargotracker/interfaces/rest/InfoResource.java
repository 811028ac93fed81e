package dev.loomlab.cargotracker.interfaces.rest;

import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import javax.management.JMException;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * {@code GET /api/info}: the same core fields as the lab app's info endpoint (pid, java, threads,
 * the thread serving this request, the virtual pool's counters), so ./lab can start, check and
 * describe either WAR alike.
 */
@Path("info")
public class InfoResource {

    /** Registered by the lab's virtual-pool jar when a virtual mode is configured. */
    private static final String POOL_MBEANS = "dev.loomlab:type=VirtualThreadPool,*";

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public JsonObject info() throws JMException {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        Thread current = Thread.currentThread();
        return Json.createObjectBuilder()
                .add("app", "cargotracker")
                .add("pid", ProcessHandle.current().pid())
                .add("java", Json.createObjectBuilder()
                        .add("version", Runtime.version().toString())
                        .add("vendor", System.getProperty("java.vendor", ""))
                        .add("vm", System.getProperty("java.vm.name", "")))
                .add("processors", Runtime.getRuntime().availableProcessors())
                .add("maxHeapBytes", Runtime.getRuntime().maxMemory())
                .add("threads", Json.createObjectBuilder()
                        .add("live", threads.getThreadCount())
                        .add("peak", threads.getPeakThreadCount())
                        .add("daemon", threads.getDaemonThreadCount())
                        .add("started", threads.getTotalStartedThreadCount()))
                .add("request", Json.createObjectBuilder()
                        .add("virtual", current.isVirtual())
                        .add("thread", current.getName()))
                .add("virtualPools", virtualPools())
                .build();
    }

    /** Every readable attribute of each pool MBean, names starting lower case, numbers as numbers. */
    private static JsonArrayBuilder virtualPools() throws JMException {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        JsonArrayBuilder pools = Json.createArrayBuilder();
        for (ObjectName name : server.queryNames(new ObjectName(POOL_MBEANS), null)) {
            JsonObjectBuilder pool = Json.createObjectBuilder();
            for (MBeanAttributeInfo attribute : server.getMBeanInfo(name).getAttributes()) {
                if (!attribute.isReadable()) {
                    continue;
                }
                Object value = server.getAttribute(name, attribute.getName());
                String key = Character.toLowerCase(attribute.getName().charAt(0)) + attribute.getName().substring(1);
                if (value instanceof Number number) {
                    pool.add(key, number.longValue());
                } else {
                    pool.add(key, String.valueOf(value));
                }
            }
            pools.add(pool);
        }
        return pools;
    }
}
