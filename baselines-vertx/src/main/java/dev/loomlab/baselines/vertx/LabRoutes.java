package dev.loomlab.baselines.vertx;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loomlab.api.BadParameterException;
import dev.loomlab.api.FanoutRequest;
import dev.loomlab.api.QueryParameters;
import dev.loomlab.api.ServerDescription;
import dev.loomlab.api.ServerInfo;
import dev.loomlab.api.SleepGauge;
import dev.loomlab.api.SleepRequest;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
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
        router.errorHandler(413, ctx -> sendBadParameter(ctx, FanoutRequest.bodyTooLarge()));
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
        if (raw == null || raw.length() == 0) {
            throw FanoutRequest.bodyMissing();
        }
        JsonNode node;
        try {
            node = JSON.readTree(raw.getBytes());
        } catch (JsonProcessingException e) {
            throw FanoutRequest.badBody("body is not valid JSON: " + firstLine(e.getOriginalMessage()));
        } catch (java.io.IOException e) {
            throw FanoutRequest.badBody("body is not readable: " + e.getMessage());
        }
        if (node == null || node.isMissingNode()) {
            throw FanoutRequest.bodyMissing();
        }
        if (!node.isObject()) {
            throw FanoutRequest.badBody("body must be a JSON object, was " + node.getNodeType().name().toLowerCase());
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

    /** The lab's {@code /api/info}: which model this is; no virtual pools (they exist only inside Payara). */
    private String info() {
        return ServerInfo.create().sleepGauge(gauge)
                .server(new ServerDescription(model.targetName(), "Vert.x " + VERSION + ": " + model.description(), null))
                .toJson();
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
        send(ctx, 400, e.toJson());
    }

    private static void send(RoutingContext ctx, int status, ObjectNode json) {
        byte[] bytes;
        try {
            bytes = JSON.writeValueAsBytes(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        send(ctx, status, Buffer.buffer(bytes));
    }

    /** JSON that lab-api wrote already. */
    private static void send(RoutingContext ctx, int status, String json) {
        send(ctx, status, Buffer.buffer(json));
    }

    private static void send(RoutingContext ctx, int status, Buffer json) {
        if (ctx.response().ended()) {
            return;
        }
        ctx.response().setStatusCode(status).putHeader("Content-Type", "application/json").end(json);
    }

    private static String firstLine(String message) {
        String line = message == null ? "unreadable" : message.lines().findFirst().orElse("");
        return line.length() <= 120 ? line : line.substring(0, 120) + "…";
    }
}
