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
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;

/**
 * A small client for the REST API: JSON in, status and JSON out. It logs in as the operator (HTTP
 * Basic, the password from the server's admin-password file) unless made {@link #anonymous}.
 */
final class Api {

    /** The server's admin-password file, as the Failsafe configuration gives it to both sides. */
    static final String PASSWORD_FILE_PROPERTY = "cargotracker.admin.password.file";
    static final String USER = "admin";

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
    private final String authorization;

    Api(URL base) {
        this(base, "Basic " + Base64.getEncoder().encodeToString((USER + ":" + adminPassword()).getBytes(StandardCharsets.UTF_8)));
    }

    private Api(URL base, String authorization) {
        this.base = URI.create(base.toString().endsWith("/") ? base.toString() : base + "/");
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10)).build();
        this.authorization = authorization;
    }

    /** A client that sends no login; with {@code authorization}, that header as it is. */
    static Api anonymous(URL base) {
        return new Api(base, null);
    }

    static Api withAuthorization(URL base, String authorization) {
        return new Api(base, authorization);
    }

    /** The first line of the server's admin-password file (the server creates it at start). */
    static String adminPassword() {
        String file = System.getProperty(PASSWORD_FILE_PROPERTY);
        if (file == null) {
            throw new IllegalStateException(PASSWORD_FILE_PROPERTY + " is not set: run the tests through mvn verify");
        }
        try {
            return Files.readAllLines(Path.of(file), StandardCharsets.UTF_8).get(0).strip();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the admin password from " + file, e);
        }
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
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
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
