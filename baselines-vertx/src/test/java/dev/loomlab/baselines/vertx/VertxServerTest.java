package dev.loomlab.baselines.vertx;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loomlab.baselines.http.ServerSettings;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Pattern;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Both Vert.x models, started in this JVM on a free port with ONE verticle instance (so any
 * blocking of the verticle would serialize requests), answer the lab's contract: the sleep, the
 * fan-out's concurrent tasks on the model's thread kind, and the WAR's 400s.
 */
class VertxServerTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    record Answer(int status, String contentType, JsonNode json) {
    }

    private static VertxServer start(VertxModel model) throws Exception {
        return VertxServer.start(model, new ServerSettings("127.0.0.1", 0, 1, 128), 1);
    }

    private static Answer send(VertxServer server, String method, String pathAndQuery, String body) throws Exception {
        HttpRequest.BodyPublisher publisher = body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8);
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + pathAndQuery))
                .timeout(Duration.ofSeconds(30)).header("Content-Type", "application/json").method(method, publisher).build();
        HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        return new Answer(response.statusCode(), response.headers().firstValue("Content-Type").orElse(""),
                JSON.readTree(response.body()));
    }

    private static boolean virtual(VertxModel model) {
        return model == VertxModel.VIRTUAL;
    }

    @ParameterizedTest
    @EnumSource(VertxModel.class)
    void sleepsOnTheThreadKindOfTheModelAndInfoNamesTheTarget(VertxModel model) throws Exception {
        try (VertxServer server = start(model)) {
            Answer sleep = send(server, "GET", "/api/sleep?ms=30&depth=50", null);
            assertEquals(200, sleep.status());
            assertEquals("application/json", sleep.contentType());
            assertEquals(virtual(model), sleep.json().get("virtual").asBoolean(), sleep.json().toString());
            assertEquals(30, sleep.json().get("sleptMs").asInt());
            assertEquals(50, sleep.json().get("depth").asInt());
            JsonNode info = send(server, "GET", "/api/info", null).json();
            assertEquals(model.targetName(), info.at("/server/name").asText());
            assertEquals(virtual(model), info.at("/request/virtual").asBoolean());
        }
    }

    /** Twenty two-second sleeps at once on one verticle instance: all asleep together, by the server's own count. */
    @ParameterizedTest
    @EnumSource(VertxModel.class)
    void concurrentSleepsDoNotWaitForEachOtherOnOneVerticle(VertxModel model) throws Exception {
        int requests = 20;
        try (VertxServer server = start(model)) {
            List<CompletableFuture<Answer>> answers = new ArrayList<>();
            for (int i = 0; i < requests; i++) {
                answers.add(CompletableFuture.supplyAsync(() -> {
                    try {
                        return send(server, "GET", "/api/sleep?ms=2000", null);
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }));
            }
            for (CompletableFuture<Answer> answer : answers) {
                assertEquals(200, answer.join().status());
            }
            assertEquals(requests, send(server, "GET", "/api/info", null).json().at("/sleeping/peak").asInt(),
                    "sleeps asleep at the same time");
        }
    }

    @ParameterizedTest
    @EnumSource(VertxModel.class)
    void fanoutRunsItsTasksAtOnceAndEchoesTheBody(VertxModel model) throws Exception {
        String body = "{\"order\":{\"id\":42,\"lines\":[{\"sku\":\"A-1\",\"qty\":2,\"price\":9.5}]},\"note\":\"été\",\"rush\":true}";
        try (VertxServer server = start(model)) {
            Answer answer = send(server, "POST", "/api/fanout?tasks=10&minMs=500&maxMs=500", body);
            assertEquals(200, answer.status(), answer.json().toString());
            JsonNode json = answer.json();
            assertEquals(JSON.readTree(body), json.get("body"), "body echoed");
            assertEquals(virtual(model) ? "virtual-thread-per-task" : "event-loop-timers", json.get("executor").asText());
            JsonNode timings = json.get("timings");
            assertEquals(10, timings.size());
            Pattern thread = Pattern.compile(virtual(model) ? "fanout-virtual-\\d+" : "vert\\.x-eventloop-thread-\\d+");
            double lastStart = 0;
            double firstEnd = Double.MAX_VALUE;
            for (JsonNode timing : timings) {
                assertEquals(500, timing.get("sleptMs").asInt());
                assertEquals(virtual(model), timing.get("virtual").asBoolean());
                assertTrue(thread.matcher(timing.get("thread").asText()).matches(), timing.toString());
                lastStart = Math.max(lastStart, timing.get("startMs").asDouble());
                firstEnd = Math.min(firstEnd, timing.get("endMs").asDouble());
            }
            assertTrue(lastStart < firstEnd, "all ten running at once: last start " + lastStart + " ms, first end " + firstEnd + " ms");
        }
    }

    @ParameterizedTest
    @EnumSource(VertxModel.class)
    void refusesBadInputWithTheWarsJson(VertxModel model) throws Exception {
        String[][] cases = {
                {"GET", "/api/sleep?ms=60001", null, "ms"},
                {"GET", "/api/sleep?ms=1&depth=deep", null, "depth"},
                {"GET", "/api/sleep?min=200&max=100", null, "min"},
                {"POST", "/api/fanout?tasks=0", "{}", "tasks"},
                {"POST", "/api/fanout?tasks=101", "{}", "tasks"},
                {"POST", "/api/fanout?maxMs=60001", "{}", "maxMs"},
                {"POST", "/api/fanout?minMs=90&maxMs=10", "{}", "minMs"},
                {"POST", "/api/fanout", "{\"order\":", "body"},
                {"POST", "/api/fanout", "{\"a\":1} trailing", "body"},
                {"POST", "/api/fanout", "[1,2]", "body"},
                {"POST", "/api/fanout", "", "body"},
                {"POST", "/api/fanout", "{\"pad\":\"" + "x".repeat(9000) + "\"}", "body"},
        };
        try (VertxServer server = start(model)) {
            List<Executable> checks = new ArrayList<>();
            for (String[] c : cases) {
                checks.add(() -> {
                    Answer answer = send(server, c[0], c[1], c[2]);
                    assertEquals(400, answer.status(), c[1] + " -> " + answer.json());
                    assertEquals(c[3], answer.json().get("parameter").asText(), c[1] + " -> " + answer.json());
                    assertTrue(answer.json().get("error").asText().contains(c[3]), answer.json().toString());
                    assertTrue(answer.json().has("allowed"), answer.json().toString());
                });
            }
            checks.add(() -> assertEquals(404, send(server, "GET", "/api/nothing", null).status()));
            checks.add(() -> assertEquals(405, send(server, "POST", "/api/sleep", "{}").status()));
            checks.add(() -> assertEquals(405, send(server, "GET", "/api/fanout", null).status()));
            assertAll(checks);
        }
    }
}
