package dev.loomlab.app.info;

import dev.loomlab.app.fanout.FanoutBody;
import dev.loomlab.app.fanout.FanoutExecutors;
import dev.loomlab.app.fanout.FanoutRequest;
import dev.loomlab.app.sleep.SleepGauge;
import dev.loomlab.app.sleep.SleepRequest;
import jakarta.inject.Inject;
import dev.loomlab.app.api.JsonBuilders;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import javax.management.Attribute;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * {@code GET /api/info}: what this server really runs — JVM, processors, thread counts, the
 * thread serving this request, and the LoomLab virtual pool's counters when one is installed.
 */
@Path("info")
public class InfoResource {

    @Inject
    SleepGauge sleepGauge;

    @Inject
    FanoutExecutors fanoutExecutors;

    private static final String POOL_QUERY = "dev.loomlab:type=VirtualThreadPool,*";
    private static final String[] POOL_ATTRIBUTES = {"PoolName", "Variant", "MaxConcurrent", "MaxWaiting", "Started",
            "Completed", "Active", "PeakActive", "Waiting", "Rejected", "ThreadsReused"};

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public JsonObject info() throws JMException {
        Runtime runtime = Runtime.getRuntime();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        Thread current = Thread.currentThread();
        return JsonBuilders.object()
                .add("pid", ProcessHandle.current().pid())
                .add("java", JsonBuilders.object()
                        .add("version", Runtime.version().toString())
                        .add("vendor", System.getProperty("java.vendor", ""))
                        .add("vm", System.getProperty("java.vm.name", "")))
                .add("processors", runtime.availableProcessors())
                .add("maxHeapBytes", runtime.maxMemory())
                .add("uptimeMs", ManagementFactory.getRuntimeMXBean().getUptime())
                .add("threads", JsonBuilders.object()
                        .add("live", threads.getThreadCount())
                        .add("peak", threads.getPeakThreadCount())
                        .add("daemon", threads.getDaemonThreadCount())
                        .add("started", threads.getTotalStartedThreadCount()))
                .add("request", JsonBuilders.object()
                        .add("virtual", current.isVirtual())
                        .add("thread", current.getName()))
                .add("sleeping", JsonBuilders.object()
                        .add("now", sleepGauge.sleeping())
                        .add("peak", sleepGauge.peak()))
                .add("limits", JsonBuilders.object()
                        .add("sleepMaxMs", Integer.getInteger(SleepRequest.MAX_MS_PROPERTY, 60_000))
                        .add("sleepMaxDepth", Integer.getInteger(SleepRequest.MAX_DEPTH_PROPERTY, 2_000))
                        .add("fanoutMaxTasks", Integer.getInteger(FanoutRequest.MAX_TASKS_PROPERTY, FanoutRequest.DEFAULT_MAX_TASKS))
                        .add("fanoutMaxBodyBytes", Integer.getInteger(FanoutBody.MAX_BYTES_PROPERTY, FanoutBody.DEFAULT_MAX_BYTES)))
                // The pool that platform requests' fan-out tasks share (virtual requests use a virtual thread per task).
                .add("fanout", JsonBuilders.object()
                        .add("platformThreads", fanoutExecutors.platformThreads()))
                .add("virtualPools", virtualPools())
                .build();
    }

    private static JsonArrayBuilder virtualPools() throws JMException {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        JsonArrayBuilder pools = JsonBuilders.array();
        for (ObjectName name : server.queryNames(new ObjectName(POOL_QUERY), null)) {
            var pool = JsonBuilders.object();
            for (Attribute attribute : server.getAttributes(name, POOL_ATTRIBUTES).asList()) {
                Object value = attribute.getValue();
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
