package dev.loomlab.cargotracker.interfaces.rest;

import jakarta.json.bind.annotation.JsonbPropertyOrder;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;

/**
 * The one error shape of the API: {@code {"status":400,"errors":[{"field":"unLocode","message":"..."}]}}.
 * Written by JSON-B like every other body of the API; a problem without a field has no "field".
 */
public final class ErrorJson {

    @JsonbPropertyOrder({"status", "errors"})
    public record Body(int status, List<Problem> errors) {
    }

    @JsonbPropertyOrder({"field", "message"})
    public record Problem(String field, String message) {
    }

    private ErrorJson() {
    }

    static Response response(Response.Status status, List<Problem> problems) {
        return Response.status(status).type(MediaType.APPLICATION_JSON_TYPE)
                .entity(new Body(status.getStatusCode(), List.copyOf(problems))).build();
    }

    public static Response response(Response.Status status, String field, String message) {
        return response(status, List.of(new Problem(field, message)));
    }
}
