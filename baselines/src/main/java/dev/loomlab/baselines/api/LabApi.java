package dev.loomlab.baselines.api;

import dev.loomlab.api.BadParameterException;
import dev.loomlab.api.FanoutRequest;
import dev.loomlab.api.Json;
import dev.loomlab.api.QueryParameters;
import dev.loomlab.api.ServerDescription;
import dev.loomlab.api.ServerInfo;
import dev.loomlab.api.SleepGauge;
import dev.loomlab.api.SleepRequest;
import dev.loomlab.api.Slept;
import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/**
 * The lab's endpoints, independent of the HTTP server that carries them, so every baseline
 * answers alike and only the way it gives a request its thread differs:
 * <ul>
 *   <li>{@code GET /api/sleep?ms=100&depth=100} (or {@code min=&max=}):
 *       {@code {"virtual","thread","sleptMs","depth"}}, 400 {@code {"error","parameter","allowed"}};</li>
 *   <li>{@code GET /api/info}: pid, JVM, thread counts, the thread serving this request, the server;</li>
 *   <li>{@code POST /api/fanout?tasks=10&minMs=50&maxMs=100} with a JSON object as body: the tasks
 *       sleep at once on {@link FanoutTasks}, the answer echoes the body with each task's timings.</li>
 * </ul>
 * The work runs on the calling thread (the fan-out's tasks on the server's task executor): that
 * thread is what each baseline measures.
 */
public final class LabApi {

    public static final String SLEEP_PATH = "/api/sleep";
    public static final String INFO_PATH = "/api/info";
    public static final String FANOUT_PATH = "/api/fanout";

    private static final System.Logger LOG = System.getLogger(LabApi.class.getName());

    private final ServerDescription server;
    private final FanoutTasks fanoutTasks;
    private final SleepGauge gauge = new SleepGauge();

    /** A server whose fan-out tasks get a virtual thread each. */
    public LabApi(ServerDescription server) {
        this(server, FanoutTasks.virtualPerTask());
    }

    public LabApi(ServerDescription server, FanoutTasks fanoutTasks) {
        this.server = server;
        this.fanoutTasks = fanoutTasks;
    }

    /** The method a path answers to (for a 405's Allow header). */
    public static String allowedMethod(String path) {
        return FANOUT_PATH.equals(path) ? "POST" : "GET";
    }

    public ApiResponse handle(String method, String path, String rawQuery) {
        return handle(method, path, rawQuery, null);
    }

    /** {@code body}: the request body (read only by the fan-out, at most its cap plus one byte). */
    public ApiResponse handle(String method, String path, String rawQuery, InputStream body) {
        boolean known = SLEEP_PATH.equals(path) || INFO_PATH.equals(path) || FANOUT_PATH.equals(path);
        if (!known) {
            return ApiResponse.error(404, "Not Found");
        }
        if (!allowedMethod(path).equals(method)) {
            return ApiResponse.error(405, "Method Not Allowed");
        }
        try {
            return switch (path) {
                case SLEEP_PATH -> sleep(QueryParameters.parse(rawQuery));
                case FANOUT_PATH -> fanout(QueryParameters.parse(rawQuery), body);
                default -> new ApiResponse(200, info());
            };
        } catch (BadParameterException e) {
            return new ApiResponse(400, e.toJson());
        } catch (InterruptedException e) {
            // The server is stopping: say so rather than pretend the sleep happened.
            Thread.currentThread().interrupt();
            return ApiResponse.error(503, "interrupted");
        } catch (RuntimeException | StackOverflowError | IOException | ExecutionException e) {
            // The trace goes to the server log, never to the client.
            LOG.log(Level.WARNING, "request failed: " + method + " " + path, e);
            return ApiResponse.error(500, e.getClass().getSimpleName());
        }
    }

    private ApiResponse fanout(QueryParameters query, InputStream in)
            throws IOException, InterruptedException, ExecutionException {
        FanoutRequest request = FanoutRequest.parse(query);
        String body = readBody(in);
        long began = System.nanoTime();
        List<Future<Json>> futures = new ArrayList<>(request.tasks());
        for (int i = 0; i < request.tasks(); i++) {
            int index = i;
            futures.add(fanoutTasks.executor().submit(() -> {
                long start = System.nanoTime();
                int sleptMs = request.sleep().drawMs();
                Thread.sleep(sleptMs);
                Thread thread = Thread.currentThread();
                return Json.object().add("task", index)
                        .add("startMs", (start - began) / 1_000 / 1000.0)
                        .add("endMs", (System.nanoTime() - began) / 1_000 / 1000.0)
                        .add("sleptMs", sleptMs)
                        .add("virtual", thread.isVirtual())
                        .add("thread", thread.getName());
            }));
        }
        List<Json> timings = new ArrayList<>(futures.size());
        for (Future<Json> future : futures) {
            timings.add(future.get());
        }
        Thread thread = Thread.currentThread();
        return ApiResponse.ok(Json.object()
                .add("virtual", thread.isVirtual())
                .add("thread", thread.getName())
                .add("executor", fanoutTasks.kind())
                .add("tasks", request.tasks())
                .add("elapsedMs", (System.nanoTime() - began) / 1_000 / 1000.0)
                .addRaw("body", body)
                .add("timings", timings));
    }

    /** The body's text when it is one JSON object within the cap; else a 400 naming "body". */
    static String readBody(InputStream in) throws IOException {
        int max = FanoutRequest.maxBodyBytes();
        byte[] bytes = in == null ? new byte[0] : in.readNBytes(max + 1);
        if (bytes.length > max) {
            throw FanoutRequest.bodyTooLarge();
        }
        String text = new String(bytes, StandardCharsets.UTF_8).strip();
        if (text.isEmpty()) {
            throw FanoutRequest.bodyMissing();
        }
        String problem = JsonSyntax.problemWithObject(text);
        if (problem != null) {
            throw FanoutRequest.badBody("body is not one JSON object: " + problem);
        }
        return text;
    }

    private ApiResponse sleep(QueryParameters query) throws InterruptedException {
        Slept slept = Slept.block(SleepRequest.parse(query), gauge);
        return ApiResponse.ok(Json.object()
                .add("virtual", slept.virtual())
                .add("thread", slept.thread())
                .add("sleptMs", slept.sleptMs())
                .add("depth", slept.depth()));
    }

    /** The WAR's {@code /api/info} plus which server this is; no virtual pools (they exist only inside Payara). */
    private String info() {
        return ServerInfo.create().sleepGauge(gauge).server(server).toJson();
    }
}
