package dev.loomlab.baselines.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomlab.baselines.http.LabClient.Answer;
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
}
