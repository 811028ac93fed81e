package dev.loomlab.app;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.function.Executable;

/**
 * Proves, by behaviour, that Payara Micro really runs in the mode this Failsafe execution started
 * it in. One class, so each mode costs one server start; every test runs against the same server.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class ThreadModeIT {

    /** Payara Micro's listener; Payara Server's and GlassFish's is http-listener-1 (their profiles set it). */
    private static final String LISTENER = System.getProperty("loomlab.listener", "http-listener");
    /** Grizzly's own workers are named "NAME(n)": Payara's NAME is the pool's and the listener's, GlassFish's
     *  only the listener's (the glassfish profile sets it). */
    private static final String PLATFORM_WORKER_NAME = System.getProperty("loomlab.platformWorker", "http-thread-pool::" + LISTENER);
    private static final Pattern PLATFORM_WORKER = Pattern.compile(Pattern.quote(PLATFORM_WORKER_NAME) + "\\(\\d+\\)");
    private static final Pattern VIRTUAL_WORKER = Pattern.compile("http-thread-pool::" + Pattern.quote(LISTENER) + "-virtual-\\d+");
    /** Payara Micro's default http-thread-pool size: a mode whose config did not apply is stuck at it. */
    private static final int MICRO_DEFAULT_POOL = 200;
    private static final Pattern FANOUT_VIRTUAL_TASK = Pattern.compile("fanout-virtual-\\d+");
    private static final Pattern FANOUT_PLATFORM_TASK = Pattern.compile("fanout-platform-\\d+");
    /** Bounds small enough to fill with twice as many two-second sleeps in a test. */
    private static final int SMALL_BOUND = 50;

    private final ModeUnderTest mode = ModeUnderTest.current();

    @ArquillianResource
    private URL base;

    private LabClient openClient;

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.labWar();
    }

    @Test
    void requestsRunOnTheThreadKindOfTheMode() throws Exception {
        LabClient client = client();
        for (int i = 0; i < 5; i++) {
            JsonObject answer = client.get("api/sleep?ms=1&depth=100").json();
            String thread = answer.getString("thread");
            assertEquals(mode.virtual, answer.getBoolean("virtual"), "virtual flag on " + thread);
            Pattern expected = mode.virtual ? VIRTUAL_WORKER : PLATFORM_WORKER;
            assertTrue(expected.matcher(thread).matches(), thread + " is not a worker of " + mode.name);
            assertEquals(100, answer.getInt("depth"));
            assertEquals(1, answer.getInt("sleptMs"));
        }
    }

    @Test
    void infoShowsTheVirtualPoolOnlyInVirtualModes() throws Exception {
        JsonArray pools = client().info().getJsonArray("virtualPools");
        if (!mode.virtual) {
            assertTrue(pools.isEmpty(), "platform mode must not load the virtual pool: " + pools);
            return;
        }
        assertEquals(1, pools.size(), pools.toString());
        JsonObject pool = pools.getJsonObject(0);
        assertEquals("http-thread-pool::" + LISTENER, pool.getString("poolName"));
        assertEquals(mode.maxConcurrent, pool.getInt("maxConcurrent"));
        assertEquals(mode.maxWaiting, pool.getInt("maxWaiting"));
    }

    /**
     * 300 long sleeps at once: all of them sleep at the same moment (one wave) unless the pool is stuck
     * at Micro's default 200. Proved by the server's own count of concurrent sleepers, which does
     * not depend on how fast the client (sharing two cores with the server) sends.
     */
    @Test
    void moreSleepsThanMicrosDefaultPoolRunInOneWave() throws Exception {
        int requests = 300;
        assumeTrue(mode.admitsAtOnce(requests), mode.name + " is bounded below " + requests);
        LabClient client = client();
        // Long sleeps: all 300 must arrive before the first one wakes, even on a busy 2-core machine.
        List<LabClient.Outcome> outcomes = client.burstOfSleeps(requests, 8000);

        assertEquals(requests, LabClient.okCount(outcomes), "all succeed: " + failures(outcomes));
        JsonObject info = client.info();
        int peakSleeping = info.getJsonObject("sleeping").getInt("peak");
        assertEquals(requests, peakSleeping, "requests asleep at once");
        if (mode.virtual) {
            int peak = info.getJsonArray("virtualPools").getJsonObject(0).getInt("peakActive");
            assertTrue(peak >= requests, "peak active virtual threads " + peak);
        } else {
            int peakThreads = info.getJsonObject("threads").getInt("peak");
            assertTrue(peakThreads > requests, "peak live platform threads " + peakThreads + " <= " + requests);
        }
    }

    /**
     * A small bound (platform-8; the test bound 10 with its queue of 10): twice the bound in two-second
     * sleeps take two waves, and the pool never runs more than its bound.
     */
    @Test
    void aSmallBoundRunsAtMostItsBoundAndQueuesTheRest() throws Exception {
        assumeTrue(mode.maxConcurrent > 0 && mode.maxConcurrent <= SMALL_BOUND, "needs a bound of at most " + SMALL_BOUND);
        LabClient client = client();
        if (mode.virtual) {
            awaitIdlePool(client);
        }
        List<LabClient.Outcome> outcomes = client.burstOfSleeps(2 * mode.maxConcurrent, 2000);

        assertEquals(2 * mode.maxConcurrent, LabClient.okCount(outcomes), "all succeed: " + failures(outcomes));
        // Load can only make requests slower, so this lower bound holds on a busy machine too.
        long secondWave = LabClient.slowerThan(outcomes, 3950);
        assertTrue(secondWave >= mode.maxConcurrent, "the second " + mode.maxConcurrent
                + " should wait for the first wave; only " + secondWave + " took >= 3.95 s");
        JsonObject info = client.info();
        assertEquals(mode.maxConcurrent, info.getJsonObject("sleeping").getInt("peak"), "asleep at once");
        if (mode.virtual) {
            JsonObject pool = info.getJsonArray("virtualPools").getJsonObject(0);
            assertEquals(mode.maxConcurrent, pool.getInt("peakActive"), "peak active " + pool);
        }
    }

    /** Beyond bound + queue, requests are refused with 503 and the server stays healthy. */
    @Test
    void boundedPoolRejectsBeyondItsQueueAndStaysHealthy() throws Exception {
        assumeTrue(mode == ModeUnderTest.VIRTUAL_BOUNDED_TEST, "needs the tiny test bound and queue");
        LabClient client = client();
        // The sleep path's first requests load its classes: warm it, so the burst meets the steady
        // admission the test is about, not a first request slow enough to let the refused ones pile up.
        for (int i = 0; i < 3; i++) {
            assertEquals(200, client.get("api/sleep?ms=1").status());
        }
        awaitIdlePool(client);
        JsonObject before = pool(client);
        long rejectedBefore = before.getJsonNumber("rejected").longValue();
        int capacity = mode.maxConcurrent + mode.maxWaiting;

        List<LabClient.Outcome> outcomes = client.burstOfSleeps(3 * capacity, 3000);

        JsonObject after = pool(client);
        long ok = LabClient.okCount(outcomes);
        // Every admitted request of the burst is served; the pool's other tasks meanwhile (the info request
        // after it aside) say what else competed for places, should this fail.
        long otherTasks = after.getJsonNumber("started").longValue() - before.getJsonNumber("started").longValue() - 1 - ok;
        assertTrue(ok >= mode.maxConcurrent, "at least a full bound served: " + ok + ", failures " + failures(outcomes)
                + "; other tasks the pool started meanwhile: " + otherTasks);
        assertTrue(ok < outcomes.size(), "some requests beyond " + capacity + " must be refused");
        long rejected = pool(client).getJsonNumber("rejected").longValue() - rejectedBefore;
        assertTrue(rejected >= outcomes.size() - ok, "pool counted " + rejected + " rejections for " + (outcomes.size() - ok) + " failures");
        long serviceUnavailable = outcomes.stream().filter(o -> o.status() == 503).count();
        assertEquals(outcomes.size() - ok, serviceUnavailable, "every refused request gets a 503, not a closed connection: " + failures(outcomes));
        assertEquals(200, client.get("api/sleep?ms=1").status(), "server still serves after rejecting");
    }

    /**
     * Ten one-second blocking calls in one request all run at the same moment (each started before
     * any ended, by the server's own clock), on the mode's thread kind: a virtual thread per task in
     * virtual modes, the platform pool as large as the HTTP pool in platform modes.
     */
    @Test
    void fanoutRunsItsTasksConcurrentlyOnTheThreadKindOfTheMode() throws Exception {
        // A platform pool smaller than ten (platform-8) runs as many tasks at once as it has threads.
        int tasks = mode.virtual ? 10 : Math.min(10, mode.maxConcurrent);
        int sleepMs = 1000;
        String body = "{\"order\":{\"id\":42,\"lines\":[{\"sku\":\"A-1\",\"qty\":2,\"price\":9.5}]},\"note\":\"\u00e9t\u00e9\",\"rush\":true}";
        LabClient.Answer answer = client().post(
                "api/fanout?tasks=" + tasks + "&minMs=" + sleepMs + "&maxMs=" + sleepMs, body);

        assertEquals(200, answer.status(), answer.json().toString());
        JsonObject json = answer.json();
        assertEquals(Json.createReader(new StringReader(body)).readObject(), json.getJsonObject("body"), "body echoed");
        assertEquals(mode.virtual, json.getBoolean("virtual"), "request thread " + json.getString("thread"));
        assertEquals(mode.virtual ? "virtual-thread-per-task" : "platform-pool-" + mode.maxConcurrent, json.getString("executor"));
        JsonArray timings = json.getJsonArray("timings");
        assertEquals(tasks, timings.size());
        double lastStart = 0;
        double firstEnd = Double.MAX_VALUE;
        for (JsonObject timing : timings.getValuesAs(JsonObject.class)) {
            assertEquals(sleepMs, timing.getInt("sleptMs"));
            assertEquals(mode.virtual, timing.getBoolean("virtual"), "task thread " + timing.getString("thread"));
            Pattern expected = mode.virtual ? FANOUT_VIRTUAL_TASK : FANOUT_PLATFORM_TASK;
            assertTrue(expected.matcher(timing.getString("thread")).matches(), timing.getString("thread"));
            lastStart = Math.max(lastStart, timing.getJsonNumber("startMs").doubleValue());
            firstEnd = Math.min(firstEnd, timing.getJsonNumber("endMs").doubleValue());
        }
        assertTrue(lastStart < firstEnd, "all tasks running at once: the last started at " + lastStart
                + " ms, the first ended at " + firstEnd + " ms");
        // One after another would take 10 s; at once, one sleep plus scheduling.
        assertTrue(json.getJsonNumber("elapsedMs").doubleValue() < tasks * sleepMs / 2.0, "elapsed " + json.get("elapsedMs"));
    }

    /** Every bad input gets 400 with a JSON message naming the parameter. */
    @Test
    void badInputIsRejectedWith400NamingTheParameter() throws Exception {
        LabClient client = client();
        int sleepCap = mode == ModeUnderTest.VIRTUAL_BOUNDED_TEST ? 5000 : 60000;
        List<Executable> checks = new ArrayList<>();
        Function<String[], Executable> expect400 = c -> () -> {
            LabClient.Answer answer = client.get(c[0]);
            assertEquals(400, answer.status(), c[0] + " -> " + answer.json());
            assertEquals(c[1], answer.json().getString("parameter"), c[0] + " -> " + answer.json());
            assertTrue(answer.json().getString("error").contains(c[1]), "message names " + c[1] + ": " + answer.json());
        };
        String[][] cases = {
                {"api/sleep?ms=-1", "ms"},
                {"api/sleep?ms=abc", "ms"},
                {"api/sleep?ms=99999999999999999999", "ms"},
                {"api/sleep?ms=" + (sleepCap + 1), "ms"},
                {"api/sleep?ms=1&depth=2001", "depth"},
                {"api/sleep?ms=1&depth=-3", "depth"},
                {"api/sleep?ms=1&depth=deep", "depth"},
                {"api/sleep?min=10", "max"},
                {"api/sleep?min=200&max=100", "min"},
                {"api/sleep?min=-1&max=100", "min"},
                {"api/sleep?ms=5&min=1&max=9", "ms"},
                {"api/work?kind=sleep", "kind"},
                {"api/work?kind=hash&rounds=0", "rounds"},
                {"api/work?kind=keypair&bits=1500", "bits"},
                {"api/work?kind=hash&rounds=100001", "rounds"},
                {"api/work?kind=keypair&bits=4096", "bits"},
        };
        for (String[] c : cases) {
            checks.add(expect400.apply(c));
        }
        Function<String[], Executable> expectPost400 = c -> () -> {
            LabClient.Answer answer = client.post(c[0], c[1]);
            assertEquals(400, answer.status(), c[0] + " " + c[1] + " -> " + answer.json());
            assertEquals(c[2], answer.json().getString("parameter"), c[0] + " -> " + answer.json());
            assertTrue(answer.json().getString("error").contains(c[2]), "message names " + c[2] + ": " + answer.json());
        };
        String[][] fanoutCases = {
                {"api/fanout?tasks=0", "{}", "tasks"},
                {"api/fanout?tasks=101", "{}", "tasks"},
                {"api/fanout?tasks=ten", "{}", "tasks"},
                {"api/fanout?minMs=-1", "{}", "minMs"},
                {"api/fanout?maxMs=" + (sleepCap + 1), "{}", "maxMs"},
                {"api/fanout?minMs=90&maxMs=10", "{}", "minMs"},
                {"api/fanout", "{\"order\":", "body"},
                {"api/fanout", "{\"a\":1} trailing", "body"},
                {"api/fanout", "[1,2]", "body"},
                {"api/fanout", "42", "body"},
                {"api/fanout", "", "body"},
                {"api/fanout", "{\"pad\":\"" + "x".repeat(9000) + "\"}", "body"},
        };
        for (String[] c : fanoutCases) {
            checks.add(expectPost400.apply(c));
        }
        // The cap is a setting: this container lowers it to 5000 with -Dloomlab.sleep.maxMs.
        checks.add(() -> assertEquals("0.." + sleepCap, client.get("api/sleep?ms=" + (sleepCap + 1)).json().getString("allowed")));
        // CPU work is capped so one request cannot hold a carrier for long; the 400 says the cap and why.
        checks.add(() -> {
            JsonObject tooMany = client.get("api/work?kind=hash&rounds=1000000").json();
            assertEquals("1..100000", tooMany.getString("allowed"), tooMany.toString());
            assertTrue(tooMany.getString("error").contains("not time-sliced"), tooMany.toString());
        });
        checks.add(() -> assertEquals("1024..2048", client.get("api/work?kind=keypair&bits=4096").json().getString("allowed")));
        assertAll(checks);
    }

    @Test
    void randomSleepStaysInItsRangeAndWorkRunsOnTheSameThreads() throws Exception {
        LabClient client = client();
        for (int i = 0; i < 10; i++) {
            int slept = client.get("api/sleep?min=5&max=15").json().getInt("sleptMs");
            assertTrue(slept >= 5 && slept <= 15, "slept " + slept);
        }
        JsonObject work = client.get("api/work?kind=hash&rounds=1000").json();
        assertEquals(mode.virtual, work.getBoolean("virtual"));
        assertEquals(64, work.getString("digest").length());
    }

    /**
     * Bound + queue is exactly what the bounded tests send: a request of an earlier test whose thread
     * still holds its slot after its answer went out would turn one of them away. Waits (at most
     * 30 s) until the pool runs nothing but this info request.
     */

    /**
     * The test's one client, closed after it: an idle keep-alive connection left open would be closed
     * later (by the server's keep-alive timeout, or when the client is collected), and the server reads
     * that end of the connection in a pool task, which in the bounded pool takes a place, perhaps in
     * some later test's burst.
     */
    private LabClient client() {
        if (openClient == null) {
            openClient = new LabClient(base);
        }
        return openClient;
    }

    @AfterEach
    void closeClient() {
        if (openClient != null) {
            openClient.close();
            openClient = null;
        }
    }

    private static void awaitIdlePool(LabClient client) throws Exception {
        long deadline = System.nanoTime() + 30_000_000_000L;
        JsonObject pool = pool(client);
        while ((pool.getInt("active") > 1 || pool.getInt("waiting") > 0) && System.nanoTime() < deadline) {
            Thread.sleep(100);
            pool = pool(client);
        }
        assertTrue(pool.getInt("active") <= 1 && pool.getInt("waiting") == 0, "pool never became idle: " + pool);
    }

    private static JsonObject pool(LabClient client) throws Exception {
        return client.info().getJsonArray("virtualPools").getJsonObject(0);
    }

    private static String failures(List<LabClient.Outcome> outcomes) {
        return outcomes.stream().filter(o -> !o.ok()).limit(3).map(o -> o.status() + " " + o.failure()).toList().toString();
    }
}
