package dev.loomlab.baselines.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomlab.baselines.http.LabClient.Answer;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Each JDK server, started in this JVM on a free port, answers as the WAR does on the thread kind it claims. */
class JdkLabServerTest {

    private static final Map<JdkServerKind, String> THREAD_PREFIX = Map.of(
            JdkServerKind.THREAD_PER_REQUEST, "request-platform-",
            JdkServerKind.EXECUTOR, "pool-platform-",
            JdkServerKind.VIRTUAL, "request-virtual-",
            JdkServerKind.VIRTUAL_BOUNDED, "bounded-virtual-");

    private static JdkLabServer start(JdkServerKind kind, int threads) throws IOException {
        return JdkLabServer.start(kind, new ServerSettings("127.0.0.1", 0, threads, 128));
    }

    private static boolean isVirtual(JdkServerKind kind) {
        return kind == JdkServerKind.VIRTUAL || kind == JdkServerKind.VIRTUAL_BOUNDED;
    }

    @ParameterizedTest
    @EnumSource(JdkServerKind.class)
    void sleepsAtDepthOnTheThreadKindItClaims(JdkServerKind kind) throws IOException {
        try (JdkLabServer server = start(kind, 4)) {
            Answer answer = new LabClient(server.baseUrl()).get("/api/sleep?ms=30&depth=50");
            assertEquals(200, answer.status());
            assertEquals("application/json", answer.contentType());
            assertEquals(isVirtual(kind), answer.json().getBoolean("virtual"));
            assertTrue(answer.json().getString("thread").startsWith(THREAD_PREFIX.get(kind)), answer.json().toString());
            assertEquals(30, answer.json().getInt("sleptMs"));
            assertEquals(50, answer.json().getInt("depth"));
            assertEquals(4, answer.json().size());
        }
    }

    @ParameterizedTest
    @EnumSource(JdkServerKind.class)
    void refusesBadInputWithTheWarsJson(JdkServerKind kind) throws IOException {
        try (JdkLabServer server = start(kind, 4)) {
            LabClient client = new LabClient(server.baseUrl());
            Answer tooLong = client.get("/api/sleep?ms=60001");
            assertEquals(400, tooLong.status());
            assertEquals("ms", tooLong.json().getString("parameter"));
            assertEquals("0..60000", tooLong.json().getString("allowed"));
            assertEquals("ms must be in 0..60000, was 60001", tooLong.json().getString("error"));

            Answer inverted = client.get("/api/sleep?min=50&max=10");
            assertEquals(400, inverted.status());
            assertEquals("min", inverted.json().getString("parameter"));

            assertEquals(404, client.get("/api/nothing").status());
            assertEquals(405, client.post("/api/sleep?ms=1").status());
        }
    }

    @ParameterizedTest
    @EnumSource(JdkServerKind.class)
    void infoNamesThisProcessAndTheRequestThread(JdkServerKind kind) throws IOException {
        try (JdkLabServer server = start(kind, 7)) {
            Answer info = new LabClient(server.baseUrl()).get("/api/info");
            assertEquals(200, info.status());
            assertEquals(ProcessHandle.current().pid(), info.json().getJsonNumber("pid").longValue());
            assertEquals(Runtime.version().toString(), info.json().getJsonObject("java").getString("version"));
            assertEquals(isVirtual(kind), info.json().getJsonObject("request").getBoolean("virtual"));
            assertEquals(server.description().name(), info.json().getJsonObject("server").getString("name"));
            boolean bounded = info.json().getJsonObject("server").isNull("maxConcurrent");
            assertEquals(!kind.bounded(), bounded);
        }
    }

    @Test
    void threadPerRequestStartsANewThreadEachTime() throws IOException {
        try (JdkLabServer server = start(JdkServerKind.THREAD_PER_REQUEST, 1)) {
            LabClient client = new LabClient(server.baseUrl());
            String first = client.get("/api/sleep?ms=0").json().getString("thread");
            String second = client.get("/api/sleep?ms=0").json().getString("thread");
            assertNotEquals(first, second);
        }
    }

    @Test
    void executorReusesItsFixedPool() throws IOException {
        try (JdkLabServer server = start(JdkServerKind.EXECUTOR, 2)) {
            assertEquals("jdk-executor-2", server.description().name());
            LabClient client = new LabClient(server.baseUrl());
            Set<String> threads = new HashSet<>();
            for (int i = 0; i < 8; i++) {
                threads.add(client.get("/api/sleep?ms=0").json().getString("thread"));
            }
            assertTrue(threads.size() <= 2, "more threads than the pool holds: " + threads);
            assertTrue(threads.stream().allMatch(t -> t.startsWith("pool-platform-")), threads.toString());
        }
    }

    @Test
    void boundedVirtualRunsNoMoreThanItsLimitAtOnce() throws IOException {
        try (JdkLabServer server = start(JdkServerKind.VIRTUAL_BOUNDED, 1)) {
            LabClient client = new LabClient(server.baseUrl());
            long start = System.nanoTime();
            List<Answer> answers;
            // Really concurrent clients (the common pool may have a single thread on a 2-core machine).
            try (ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
                answers = IntStream.range(0, 3)
                        .mapToObj(i -> CompletableFuture.supplyAsync(() -> client.get("/api/sleep?ms=150"), clients))
                        .toList().stream().map(CompletableFuture::join).toList();
            }
            long elapsedMs = (System.nanoTime() - start) / 1_000_000;
            assertTrue(answers.stream().allMatch(a -> a.status() == 200 && a.json().getBoolean("virtual")));
            // The server's own gauge: never more than one request asleep at once.
            assertEquals(1, client.get("/api/info").json().getJsonObject("sleeping").getInt("peak"));
            // So three 150 ms sleeps cannot finish sooner than 450 ms (a floor, not a speed goal).
            assertTrue(elapsedMs >= 450, "three sleeps overlapped under a limit of 1: " + elapsedMs + " ms");
        }
    }

    /** The fan-out's tasks all sleep at once, on the thread kind of the server's requests, and the body comes back. */
    @ParameterizedTest
    @EnumSource(JdkServerKind.class)
    void fanoutRunsItsTasksAtOnceOnTheRequestsThreadKind(JdkServerKind kind) throws IOException {
        String body = "{\"order\":{\"id\":42,\"lines\":[{\"sku\":\"A-1\",\"qty\":2,\"price\":9.5e0}]},\"note\":\"\u00e9t\u00e9 \\\"q\\\"\"}";
        try (JdkLabServer server = start(kind, 4)) {
            Answer answer = new LabClient(server.baseUrl()).post("/api/fanout?tasks=10&minMs=500&maxMs=500", body);
            assertEquals(200, answer.status(), answer.json().toString());
            assertEquals(Json.createReader(new StringReader(body)).readObject(), answer.json().getJsonObject("body"));
            String expectedExecutor = switch (kind) {
                case THREAD_PER_REQUEST -> "platform-thread-per-task";
                case EXECUTOR -> "platform-pool-4";
                case VIRTUAL, VIRTUAL_BOUNDED -> "virtual-thread-per-task";
            };
            assertEquals(expectedExecutor, answer.json().getString("executor"));
            double lastStart = 0;
            double firstEnd = Double.MAX_VALUE;
            Set<String> threads = new HashSet<>();
            for (JsonObject t : answer.json().getJsonArray("timings").getValuesAs(JsonObject.class)) {
                assertEquals(isVirtual(kind), t.getBoolean("virtual"), t.toString());
                threads.add(t.getString("thread"));
                lastStart = Math.max(lastStart, t.getJsonNumber("startMs").doubleValue());
                firstEnd = Math.min(firstEnd, t.getJsonNumber("endMs").doubleValue());
            }
            if (kind == JdkServerKind.EXECUTOR) {
                // A pool of 4: the ten tasks take three rounds, never more than 4 threads.
                assertTrue(threads.size() <= 4, threads.toString());
                assertTrue(answer.json().getJsonNumber("elapsedMs").doubleValue() >= 1500, answer.json().toString());
            } else {
                assertEquals(10, threads.size(), threads.toString());
                assertTrue(lastStart < firstEnd, "all ten at once: last start " + lastStart + ", first end " + firstEnd);
            }
        }
    }

    @Test
    void fanoutRefusesBadQueriesAndBodiesWithTheWarsJson() throws IOException {
        String[][] cases = {
                {"/api/fanout?tasks=0", "{}", "tasks"}, {"/api/fanout?tasks=x", "{}", "tasks"},
                {"/api/fanout?maxMs=60001", "{}", "maxMs"}, {"/api/fanout?minMs=90&maxMs=10", "{}", "minMs"},
                {"/api/fanout", "{\"a\":", "body"}, {"/api/fanout", "{\"a\":1} x", "body"},
                {"/api/fanout", "[1]", "body"}, {"/api/fanout", "", "body"},
                {"/api/fanout", "{\"pad\":\"" + "x".repeat(9000) + "\"}", "body"},
        };
        try (JdkLabServer server = start(JdkServerKind.VIRTUAL, 1)) {
            LabClient client = new LabClient(server.baseUrl());
            for (String[] c : cases) {
                Answer answer = client.post(c[0], c[1]);
                assertEquals(400, answer.status(), c[0] + " " + answer.json());
                assertEquals(c[2], answer.json().getString("parameter"), c[0] + " " + answer.json());
                assertTrue(answer.json().getString("error").contains(c[2]), answer.json().toString());
            }
            assertEquals(405, client.get("/api/fanout").status());
        }
    }
}
