package dev.loomlab.baselines.vertx;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loomlab.baselines.api.BadParameterException;
import dev.loomlab.baselines.api.FanoutRequest;
import dev.loomlab.baselines.api.QueryParameters;
import dev.loomlab.baselines.api.SleepGauge;
import dev.loomlab.baselines.api.SleepRequest;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The lab's contract on a Vert.x router, the same as the WAR's and the JDK servers':
 * {@code GET /api/sleep}, {@code GET /api/info}, {@code POST /api/fanout}, and 400
 * {@code {"error","parameter","allowed"}} for bad input (an oversized body too, not Vert.x's 413).
 * Shared by every verticle instance; all state is thread-safe.
 */
final class LabRoutes {

    // FAIL_ON_TRAILING_TOKENS: `{} x` is not one JSON object.
    private static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    /** From vertx-core's jar manifest. */
    private static final String VERSION = String.valueOf(io.vertx.core.Vertx.class.getPackage().getImplementationVersion());

    private final VertxModel model;
    private final Waits waits;
    private final SleepGauge gauge = new SleepGauge();

    LabRoutes(VertxModel model, Waits waits) {
        this.model = model;
        this.waits = waits;
    }

    Router router(io.vertx.core.Vertx vertx) {
        Router router = Router.router(vertx);
        router.get("/api/sleep").handler(this::sleep);
        router.get("/api/info").handler(ctx -> send(ctx, 200, info()));
        // One byte above the cap, so an oversized body fails here (Vert.x answers 413, turned into our 400 below).
        router.post("/api/fanout").handler(BodyHandler.create(false).setBodyLimit(FanoutRequest.maxBodyBytes()))
                .handler(this::fanout);
        router.errorHandler(413, ctx -> sendBadParameter(ctx, new BadParameterException("body", FanoutRequest.bodyAllowed(),
                "body is larger than " + FanoutRequest.maxBodyBytes() + " bytes")));
        router.errorHandler(404, ctx -> send(ctx, 404, error("Not Found")));
        router.errorHandler(405, ctx -> send(ctx, 405, error("Method Not Allowed")));
        router.errorHandler(500, ctx -> send(ctx, 500, error(ctx.failure() == null ? "Internal Server Error"
                : ctx.failure().getClass().getSimpleName())));
        return router;
    }

    private void sleep(RoutingContext ctx) {
        SleepRequest request;
        try {
            request = SleepRequest.parse(query(ctx));
        } catch (BadParameterException e) {
            sendBadParameter(ctx, e);
            return;
        }
        int sleptMs = request.drawMs();
        Thread thread = Thread.currentThread();
        gauge.enter();
        Future<Integer> slept = waits.sleep(request.depth(), sleptMs).andThen(done -> gauge.leave());
        answer(ctx, slept, reached -> object()
                .put("virtual", thread.isVirtual())
                .put("thread", thread.getName())
                .put("sleptMs", sleptMs)
                .put("depth", reached));
    }

    private void fanout(RoutingContext ctx) {
        FanoutRequest request;
        JsonNode body;
        try {
            request = FanoutRequest.parse(query(ctx));
            body = readBody(ctx.body().buffer());
        } catch (BadParameterException e) {
            sendBadParameter(ctx, e);
            return;
        }
        long began = System.nanoTime();
        List<Future<Waits.TaskTiming>> tasks = new ArrayList<>(request.tasks());
        for (int i = 0; i < request.tasks(); i++) {
            tasks.add(waits.task(i, request.sleep().drawMs(), began));
        }
        Thread thread = Thread.currentThread();
        answer(ctx, Future.all(tasks), all -> {
            ArrayNode timings = JSON.createArrayNode();
            for (int i = 0; i < all.size(); i++) {
                Waits.TaskTiming t = all.resultAt(i);
                timings.add(object().put("task", t.task())
                        .put("startMs", t.startMicros() / 1000.0)
                        .put("endMs", t.endMicros() / 1000.0)
                        .put("sleptMs", t.sleptMs())
                        .put("virtual", t.virtual())
                        .put("thread", t.thread()));
            }
            ObjectNode answer = object()
                    .put("virtual", thread.isVirtual())
                    .put("thread", thread.getName())
                    .put("executor", model == VertxModel.VIRTUAL ? "virtual-thread-per-task" : "event-loop-timers")
                    .put("tasks", request.tasks())
                    .put("elapsedMs", (System.nanoTime() - began) / 1_000 / 1000.0);
            answer.set("body", body);
            answer.set("timings", timings);
            return answer;
        });
    }

    /** The body as one JSON object, or a 400 naming "body". */
    static JsonNode readBody(Buffer raw) {
        String allowed = FanoutRequest.bodyAllowed();
        if (raw == null || raw.length() == 0) {
            throw new BadParameterException("body", allowed, "body is required: " + allowed);
        }
        JsonNode node;
        try {
            node = JSON.readTree(raw.getBytes());
        } catch (JsonProcessingException e) {
            throw new BadParameterException("body", allowed, "body is not valid JSON: " + firstLine(e.getOriginalMessage()));
        } catch (java.io.IOException e) {
            throw new BadParameterException("body", allowed, "body is not readable: " + e.getMessage());
        }
        if (node == null || node.isMissingNode()) {
            throw new BadParameterException("body", allowed, "body is required: " + allowed);
        }
        if (!node.isObject()) {
            throw new BadParameterException("body", allowed, "body must be a JSON object, was " + node.getNodeType().name().toLowerCase());
        }
        return node;
    }

    /**
     * Sends what {@code result} becomes once it completes. A virtual-thread verticle awaits it (the
     * synchronous style virtual threads allow; awaiting frees the verticle for other requests); an
     * event-loop verticle must not block, so it answers from the callback.
     */
    private static <T> void answer(RoutingContext ctx, Future<T> result, Function<T, ObjectNode> toJson) {
        if (Thread.currentThread().isVirtual()) {
            try {
                send(ctx, 200, toJson.apply(result.await()));
            } catch (RuntimeException e) {
                ctx.fail(500, e);
            }
            return;
        }
        result.onComplete(done -> {
            if (done.succeeded()) {
                send(ctx, 200, toJson.apply(done.result()));
            } else {
                ctx.fail(500, done.cause());
            }
        });
    }

    private ObjectNode info() {
        Runtime runtime = Runtime.getRuntime();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        Thread current = Thread.currentThread();
        ObjectNode info = object().put("pid", ProcessHandle.current().pid());
        info.set("java", object().put("version", Runtime.version().toString())
                .put("vendor", System.getProperty("java.vendor", ""))
                .put("vm", System.getProperty("java.vm.name", "")));
        info.put("processors", runtime.availableProcessors())
                .put("maxHeapBytes", runtime.maxMemory())
                .put("uptimeMs", ManagementFactory.getRuntimeMXBean().getUptime());
        info.set("threads", object().put("live", threads.getThreadCount()).put("peak", threads.getPeakThreadCount())
                .put("daemon", threads.getDaemonThreadCount()).put("started", threads.getTotalStartedThreadCount()));
        info.set("request", object().put("virtual", current.isVirtual()).put("thread", current.getName()));
        info.set("sleeping", object().put("now", gauge.sleeping()).put("peak", gauge.peak()));
        info.set("limits", object()
                .put("sleepMaxMs", QueryParameters.cap(SleepRequest.MAX_MS_PROPERTY, SleepRequest.DEFAULT_MAX_MS))
                .put("sleepMaxDepth", QueryParameters.cap(SleepRequest.MAX_DEPTH_PROPERTY, SleepRequest.DEFAULT_MAX_DEPTH))
                .put("fanoutMaxTasks", QueryParameters.cap(FanoutRequest.MAX_TASKS_PROPERTY, FanoutRequest.DEFAULT_MAX_TASKS))
                .put("fanoutMaxBodyBytes", FanoutRequest.maxBodyBytes()));
        info.set("server", object().put("name", model.targetName())
                .put("description", "Vert.x " + VERSION + ": " + model.description())
                .putNull("maxConcurrent"));
        info.set("virtualPools", JSON.createArrayNode());
        return info;
    }

    private static QueryParameters query(RoutingContext ctx) {
        return QueryParameters.parse(ctx.request().query());
    }

    private static ObjectNode object() {
        return JSON.createObjectNode();
    }

    private static ObjectNode error(String message) {
        return object().put("error", message);
    }

    private static void sendBadParameter(RoutingContext ctx, BadParameterException e) {
        send(ctx, 400, object().put("error", e.getMessage()).put("parameter", e.parameter()).put("allowed", e.allowed()));
    }

    private static void send(RoutingContext ctx, int status, ObjectNode json) {
        if (ctx.response().ended()) {
            return;
        }
        byte[] bytes;
        try {
            bytes = JSON.writeValueAsBytes(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        ctx.response().setStatusCode(status).putHeader("Content-Type", "application/json").end(Buffer.buffer(bytes));
    }

    private static String firstLine(String message) {
        String line = message == null ? "unreadable" : message.lines().findFirst().orElse("");
        return line.length() <= 120 ? line : line.substring(0, 120) + "…";
    }
}
