package dev.loomlab.baselines.api;

import java.lang.System.Logger.Level;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * The lab's endpoints, independent of the HTTP server that carries them, so every baseline
 * answers alike and only the way it gives a request its thread differs:
 * <ul>
 *   <li>{@code GET /api/sleep?ms=100&depth=100} (or {@code min=&max=}):
 *       {@code {"virtual","thread","sleptMs","depth"}}, 400 {@code {"error","parameter","allowed"}};</li>
 *   <li>{@code GET /api/info}: pid, JVM, thread counts, the thread serving this request, the server.</li>
 * </ul>
 * The work runs on the calling thread: that thread is what each baseline measures.
 */
public final class LabApi {

    public static final String SLEEP_PATH = "/api/sleep";
    public static final String INFO_PATH = "/api/info";

    private static final System.Logger LOG = System.getLogger(LabApi.class.getName());

    private final ServerDescription server;
    private final SleepGauge gauge = new SleepGauge();

    public LabApi(ServerDescription server) {
        this.server = server;
    }

    public ApiResponse handle(String method, String path, String rawQuery) {
        boolean known = SLEEP_PATH.equals(path) || INFO_PATH.equals(path);
        if (!known) {
            return ApiResponse.error(404, "Not Found");
        }
        if (!"GET".equals(method)) {
            return ApiResponse.error(405, "Method Not Allowed");
        }
        try {
            return SLEEP_PATH.equals(path) ? sleep(QueryParameters.parse(rawQuery)) : ApiResponse.ok(info());
        } catch (BadParameterException e) {
            return new ApiResponse(400, Json.object()
                    .add("error", e.getMessage())
                    .add("parameter", e.parameter())
                    .add("allowed", e.allowed())
                    .toString());
        } catch (InterruptedException e) {
            // The server is stopping: say so rather than pretend the sleep happened.
            Thread.currentThread().interrupt();
            return ApiResponse.error(503, "interrupted");
        } catch (RuntimeException | StackOverflowError e) {
            // The trace goes to the server log, never to the client.
            LOG.log(Level.WARNING, "request failed: " + method + " " + path, e);
            return ApiResponse.error(500, e.getClass().getSimpleName());
        }
    }

    private ApiResponse sleep(QueryParameters query) throws InterruptedException {
        SleepRequest request = SleepRequest.parse(query);
        int sleptMs = request.drawMs();
        int reached;
        gauge.enter();
        try {
            reached = SleepRequest.descendThenSleep(request.depth(), sleptMs);
        } finally {
            gauge.leave();
        }
        Thread thread = Thread.currentThread();
        return ApiResponse.ok(Json.object()
                .add("virtual", thread.isVirtual())
                .add("thread", thread.getName())
                .add("sleptMs", sleptMs)
                .add("depth", reached));
    }

    /** The WAR's {@code /api/info} fields that make sense without Payara, plus which server this is. */
    private Json info() {
        Runtime runtime = Runtime.getRuntime();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        Thread current = Thread.currentThread();
        return Json.object()
                .add("pid", ProcessHandle.current().pid())
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
                        .add("thread", current.getName()))
                .add("sleeping", Json.object()
                        .add("now", gauge.sleeping())
                        .add("peak", gauge.peak()))
                .add("limits", Json.object()
                        .add("sleepMaxMs", QueryParameters.cap(SleepRequest.MAX_MS_PROPERTY, SleepRequest.DEFAULT_MAX_MS))
                        .add("sleepMaxDepth", QueryParameters.cap(SleepRequest.MAX_DEPTH_PROPERTY, SleepRequest.DEFAULT_MAX_DEPTH)))
                .add("server", Json.object()
                        .add("name", server.name())
                        .add("description", server.description())
                        .addNullable("maxConcurrent", server.maxConcurrent()))
                // Same shape as the WAR's answer; the LoomLab Grizzly pools exist only inside Payara.
                .addEmptyArray("virtualPools");
    }
}
