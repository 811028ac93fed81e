package dev.loomlab.baselines.http;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A small HTTP/1.1 client for the tests: status and parsed JSON body. */
public final class LabClient {

    public record Answer(int status, String contentType, JsonObject json) {
    }

    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final String baseUrl;

    public LabClient(String baseUrl) {
        this.baseUrl = baseUrl;
    }

    public Answer get(String pathAndQuery) {
        return send(HttpRequest.newBuilder(URI.create(baseUrl + pathAndQuery)).GET());
    }

    public Answer post(String pathAndQuery) {
        return send(HttpRequest.newBuilder(URI.create(baseUrl + pathAndQuery)).POST(HttpRequest.BodyPublishers.noBody()));
    }

    /** A POST with a JSON body. */
    public Answer post(String pathAndQuery, String json) {
        return send(HttpRequest.newBuilder(URI.create(baseUrl + pathAndQuery)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json, java.nio.charset.StandardCharsets.UTF_8)));
    }

    private Answer send(HttpRequest.Builder request) {
        try {
            HttpResponse<String> response = client.send(request.timeout(Duration.ofSeconds(20)).build(),
                    HttpResponse.BodyHandlers.ofString());
            JsonObject json = Json.createReader(new StringReader(response.body())).readObject();
            return new Answer(response.statusCode(), response.headers().firstValue("Content-Type").orElse(""), json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
