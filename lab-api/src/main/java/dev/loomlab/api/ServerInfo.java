package dev.loomlab.api;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The answer of {@code GET /api/info}, alike on every server of the lab; each of its field names
 * is written here and nowhere else. In this order:
 * <ul>
 *   <li>{@code app} (only when {@link #app(String) set}: which application this is);</li>
 *   <li>{@code pid}, {@code java {version, vendor, vm}}, {@code processors}, {@code maxHeapBytes},
 *       {@code uptimeMs}, {@code threads {live, peak, daemon, started}};</li>
 *   <li>{@code request {virtual, thread}}: the thread that writes the answer, which is the
 *       request's own in every adapter;</li>
 *   <li>{@code sleeping {now, peak}} and {@code limits {sleepMaxMs, ...}} (a server with the sleep
 *       endpoint, {@link #sleepGauge(SleepGauge)});</li>
 *   <li>{@code fanout {platformThreads}} (the WAR: the pool platform requests fan out to);</li>
 *   <li>{@code server {name, description, maxConcurrent}} (the baselines);</li>
 *   <li>{@code virtualPools}: the virtual-pool jar's counters ({@link VirtualPoolMBeans}), empty
 *       unless {@link #virtualPools(List) given}.</li>
 * </ul>
 * The JVM facts are read when {@link #toJson()} writes the answer.
 */
public final class ServerInfo {

    private String app;
    private SleepGauge gauge;
    private Integer fanoutPlatformThreads;
    private ServerDescription server;
    private List<Map<String, Object>> virtualPools = List.of();

    private ServerInfo() {
    }

    public static ServerInfo create() {
        return new ServerInfo();
    }

    /** Names the application first, for a server that can run more than one (CargoTracker). */
    public ServerInfo app(String name) {
        this.app = name;
        return this;
    }

    /** A server with the sleep endpoint: how many sleep now and at most, and the {@link Limit}s. */
    public ServerInfo sleepGauge(SleepGauge sleepGauge) {
        this.gauge = sleepGauge;
        return this;
    }

    /** The size of the pool that fan-out tasks of platform-thread requests share. */
    public ServerInfo fanoutPlatformThreads(int threads) {
        this.fanoutPlatformThreads = threads;
        return this;
    }

    /** A baseline server: what it is. */
    public ServerInfo server(ServerDescription description) {
        this.server = description;
        return this;
    }

    /** The pools from {@link VirtualPoolMBeans#read()}; a server that cannot have one leaves it empty. */
    public ServerInfo virtualPools(List<Map<String, Object>> pools) {
        this.virtualPools = List.copyOf(pools);
        return this;
    }

    /** The answer as JSON text, with this JVM's facts as of now and the calling thread as the request's. */
    public String toJson() {
        Runtime runtime = Runtime.getRuntime();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        Thread current = Thread.currentThread();
        Json info = Json.object();
        if (app != null) {
            info.add("app", app);
        }
        info.add("pid", ProcessHandle.current().pid())
                .add("java", Json.object()
                        .add("version", Runtime.version().toString())
                        .add("vendor", System.getProperty("java.vendor", ""))
                        .add("vm", System.getProperty("java.vm.name", "")))
                .add("processors", runtime.availableProcessors())
                .add("maxHeapBytes", runtime.maxMemory())
                .add("uptimeMs", ManagementFactory.getRuntimeMXBean().getUptime())
                .add("threads", Json.object()
                        .add("live", threads.getThreadCount())
                        .add("peak", threads.getPeakThreadCount())
                        .add("daemon", threads.getDaemonThreadCount())
                        .add("started", threads.getTotalStartedThreadCount()))
                .add("request", Json.object()
                        .add("virtual", current.isVirtual())
                        .add("thread", current.getName()));
        if (gauge != null) {
            info.add("sleeping", Json.object()
                    .add("now", gauge.sleeping())
                    .add("peak", gauge.peak()));
            Json limits = Json.object();
            for (Limit limit : Limit.values()) {
                limits.add(limit.infoName(), limit.value());
            }
            info.add("limits", limits);
        }
        if (fanoutPlatformThreads != null) {
            info.add("fanout", Json.object().add("platformThreads", fanoutPlatformThreads));
        }
        if (server != null) {
            info.add("server", Json.object()
                    .add("name", server.name())
                    .add("description", server.description())
                    .addNullable("maxConcurrent", server.maxConcurrent()));
        }
        return info.add("virtualPools", poolsJson()).toString();
    }

    private List<Json> poolsJson() {
        List<Json> pools = new ArrayList<>(virtualPools.size());
        for (Map<String, Object> attributes : virtualPools) {
            Json pool = Json.object();
            attributes.forEach((name, value) -> {
                if (value instanceof Number number) {
                    pool.add(name, number.longValue());
                } else {
                    pool.add(name, String.valueOf(value));
                }
            });
            pools.add(pool);
        }
        return pools;
    }
}
