package dev.loomlab.baselines.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.loomlab.baselines.api.ApiResponse;
import dev.loomlab.baselines.api.LabApi;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/** Carries a JDK HttpServer exchange to {@link LabApi} and its answer back, on whatever thread runs it. */
final class ExchangeHandler implements HttpHandler {

    private final LabApi api;

    ExchangeHandler(LabApi api) {
        this.api = api;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            URI uri = exchange.getRequestURI();
            ApiResponse response = api.handle(exchange.getRequestMethod(), uri.getRawPath(), uri.getRawQuery(),
                    exchange.getRequestBody());
            byte[] body = response.json().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            if (response.status() == 405) {
                exchange.getResponseHeaders().set("Allow", LabApi.allowedMethod(uri.getRawPath()));
            }
            exchange.sendResponseHeaders(response.status(), body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }
}
