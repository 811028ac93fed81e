package dev.loomlab.cargotracker.it;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonStructure;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A small client for the REST API: JSON in, status and JSON out. */
final class Api {

    record Answer(int status, String body) {

        JsonObject json() {
            return (JsonObject) parse();
        }

        JsonArray array() {
            return (JsonArray) parse();
        }

        private JsonStructure parse() {
            try (var reader = Json.createReader(new StringReader(body))) {
                return reader.read();
            }
        }

        /** The messages of an error answer, for assertions that name what the client is told. */
        String messages() {
            return json().getJsonArray("errors").stream()
                    .map(e -> e.asJsonObject().getString("message"))
                    .reduce((a, b) -> a + " | " + b).orElse("");
        }
    }

    private final URI base;
    private final HttpClient http;

    Api(URL base) {
        this.base = URI.create(base.toString().endsWith("/") ? base.toString() : base + "/");
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10)).build();
    }

    URI uri(String path) {
        return base.resolve(path);
    }

    Answer get(String path) {
        return send(HttpRequest.newBuilder(uri(path)).GET());
    }

    Answer postJson(String path, String json) {
        return send(HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    Answer postCsv(String path, String csv) {
        return send(HttpRequest.newBuilder(uri(path)).header("Content-Type", "text/csv")
                .POST(HttpRequest.BodyPublishers.ofString(csv)));
    }

    HttpClient http() {
        return http;
    }

    private Answer send(HttpRequest.Builder request) {
        try {
            HttpResponse<String> response = http.send(request.timeout(Duration.ofSeconds(60)).build(),
                    HttpResponse.BodyHandlers.ofString());
            return new Answer(response.statusCode(), response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static String bookingJson(String origin, String destination, String deadline) {
        return Json.createObjectBuilder().add("origin", origin).add("destination", destination)
                .add("arrivalDeadline", deadline).build().toString();
    }
}
