package dev.loomlab.app;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.io.StringReader;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/** The tests' view of a running lab server: JSON GETs, and bursts of concurrent sleeps. */
final class LabClient implements AutoCloseable {

    record Answer(int status, JsonObject json) {
    }

    /** One request of a burst: its status (-1 when the connection failed) and its latency. */
    record Outcome(int status, long millis, String failure) {
        boolean ok() {
            return status == 200;
        }
    }

    private final URI base;
    private final HttpClient http;

    LabClient(URL base) {
        this.base = URI.create(base.toExternalForm().endsWith("/") ? base.toExternalForm() : base.toExternalForm() + "/");
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10)).build();
    }

    Answer get(String pathAndQuery) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(base.resolve(pathAndQuery)).timeout(Duration.ofSeconds(60)).GET().build();
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        return new Answer(response.statusCode(), Json.createReader(new StringReader(response.body())).readObject());
    }

    /** A POST with a JSON body (sent as application/json, UTF-8). */
    Answer post(String pathAndQuery, String jsonBody) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(base.resolve(pathAndQuery)).timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(jsonBody, StandardCharsets.UTF_8)).build();
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        return new Answer(response.statusCode(), Json.createReader(new StringReader(response.body())).readObject());
    }

    /** Closes the client's connections now, so none is left for the server to close during a later test. */
    @Override
    public void close() {
        http.shutdownNow();
        try {
            http.awaitTermination(Duration.ofSeconds(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    JsonObject info() throws IOException, InterruptedException {
        return get("api/info").json();
    }

    /**
     * Sends {@code count} sleeps of {@code sleepMs} at once and waits for all. The client opens a
     * connection per request in flight (its HTTP/1.1 pool has no limit), so none waits for another.
     */
    List<Outcome> burstOfSleeps(int count, int sleepMs) throws InterruptedException {
        URI uri = base.resolve("api/sleep?ms=" + sleepMs);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Outcome>> futures = new ArrayList<>();
        try (ExecutorService senders = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < count; i++) {
                futures.add(senders.submit(() -> {
                    start.await();
                    return timedSleep(http, uri, sleepMs);
                }));
            }
            start.countDown();
        }
        List<Outcome> outcomes = new ArrayList<>();
        for (Future<Outcome> f : futures) {
            outcomes.add(f.resultNow());
        }
        return outcomes;
    }

    private static Outcome timedSleep(HttpClient http, URI uri, int sleepMs) {
        long begin = System.nanoTime();
        try {
            HttpRequest request = HttpRequest.newBuilder(uri).timeout(Duration.ofMillis(sleepMs + 30_000L)).GET().build();
            int status = http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
            return new Outcome(status, (System.nanoTime() - begin) / 1_000_000, null);
        } catch (IOException e) {
            return new Outcome(-1, (System.nanoTime() - begin) / 1_000_000, e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Outcome(-1, (System.nanoTime() - begin) / 1_000_000, "interrupted");
        }
    }

    static long maxMillis(List<Outcome> outcomes) {
        return outcomes.stream().mapToLong(Outcome::millis).max().orElse(0);
    }

    /** Requests that took at least {@code millis}: a second wave of sleeps shows up here. */
    static long slowerThan(List<Outcome> outcomes, long millis) {
        return outcomes.stream().filter(o -> o.millis() >= millis).count();
    }

    static long okCount(List<Outcome> outcomes) {
        return outcomes.stream().filter(Outcome::ok).count();
    }
}
