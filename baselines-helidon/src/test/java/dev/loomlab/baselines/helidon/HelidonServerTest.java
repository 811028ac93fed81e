package dev.loomlab.baselines.helidon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomlab.baselines.http.ServerSettings;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import io.helidon.webserver.WebServer;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Helidon answers the same contract as the JDK servers and the WAR, on a virtual thread. */
class HelidonServerTest {

    private static WebServer server;
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    record Answer(int status, String contentType, JsonObject json) {
    }

    @BeforeAll
    static void start() {
        server = HelidonServer.start(new ServerSettings("127.0.0.1", 0, 1, 128));
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.stop();
        }
    }

    private static Answer send(String method, String pathAndQuery) throws Exception {
        return send(method, pathAndQuery, null);
    }

    private static Answer send(String method, String pathAndQuery, String body) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + pathAndQuery))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", "application/json").timeout(Duration.ofSeconds(20)).build();
        HttpResponse<String> response = CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
        return new Answer(response.statusCode(), response.headers().firstValue("Content-Type").orElse(""),
                Json.createReader(new StringReader(response.body())).readObject());
    }

    @Test
    void sleepsAtDepthOnAVirtualThread() throws Exception {
        Answer answer = send("GET", "/api/sleep?min=20&max=25&depth=40");
        assertEquals(200, answer.status());
        assertTrue(answer.contentType().startsWith("application/json"), answer.contentType());
        assertTrue(answer.json().getBoolean("virtual"));
        int slept = answer.json().getInt("sleptMs");
        assertTrue(slept >= 20 && slept <= 25, "slept " + slept);
        assertEquals(40, answer.json().getInt("depth"));
        assertTrue(!answer.json().getString("thread").isEmpty());
    }

    @Test
    void refusesBadInputWithTheWarsJson() throws Exception {
        Answer answer = send("GET", "/api/sleep?ms=5&depth=2001");
        assertEquals(400, answer.status());
        assertEquals("depth", answer.json().getString("parameter"));
        assertEquals("0..2000", answer.json().getString("allowed"));
        assertEquals("depth must be in 0..2000, was 2001", answer.json().getString("error"));
        assertEquals(400, send("GET", "/api/sleep?ms=1&min=1&max=2").status());
        assertEquals(404, send("GET", "/api/other").status());
        assertEquals(405, send("DELETE", "/api/info").status());
    }

    @Test
    void infoSaysHelidonAndVirtual() throws Exception {
        JsonObject info = send("GET", "/api/info").json();
        assertEquals(ProcessHandle.current().pid(), info.getJsonNumber("pid").longValue());
        assertEquals("helidon", info.getJsonObject("server").getString("name"));
        assertTrue(info.getJsonObject("server").isNull("maxConcurrent"));
        assertTrue(info.getJsonObject("request").getBoolean("virtual"));
    }

    @Test
    void fanoutSleepsItsTasksAtOnceOnVirtualThreadsAndEchoesTheBody() throws Exception {
        String body = "{\"order\":{\"id\":42},\"lines\":[1,2,3]}";
        Answer answer = send("POST", "/api/fanout?tasks=10&minMs=500&maxMs=500", body);
        assertEquals(200, answer.status(), answer.json().toString());
        assertEquals(Json.createReader(new StringReader(body)).readObject(), answer.json().getJsonObject("body"));
        assertEquals("virtual-thread-per-task", answer.json().getString("executor"));
        double lastStart = 0;
        double firstEnd = Double.MAX_VALUE;
        for (JsonObject t : answer.json().getJsonArray("timings").getValuesAs(JsonObject.class)) {
            assertTrue(t.getBoolean("virtual"), t.toString());
            lastStart = Math.max(lastStart, t.getJsonNumber("startMs").doubleValue());
            firstEnd = Math.min(firstEnd, t.getJsonNumber("endMs").doubleValue());
        }
        assertTrue(lastStart < firstEnd, "all ten at once: last start " + lastStart + ", first end " + firstEnd);
        Answer bad = send("POST", "/api/fanout", "{\"order\":");
        assertEquals(400, bad.status());
        assertEquals("body", bad.json().getString("parameter"));
        assertEquals(405, send("GET", "/api/fanout").status());
    }
}
