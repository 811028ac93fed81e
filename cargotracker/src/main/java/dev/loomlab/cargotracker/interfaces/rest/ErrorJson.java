package dev.loomlab.cargotracker.interfaces.rest;

import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;

/** The one error shape of the API: {@code {"errors":[{"field":"unLocode","message":"..."}]}}. */
public final class ErrorJson {

    record Problem(String field, String message) {
    }

    private ErrorJson() {
    }

    static Response response(Response.Status status, List<Problem> problems) {
        JsonArrayBuilder errors = Json.createArrayBuilder();
        for (Problem p : problems) {
            var error = Json.createObjectBuilder();
            if (p.field() != null) {
                error.add("field", p.field());
            }
            errors.add(error.add("message", p.message()));
        }
        JsonObject body = Json.createObjectBuilder().add("status", status.getStatusCode()).add("errors", errors).build();
        return Response.status(status).type(MediaType.APPLICATION_JSON_TYPE).entity(body).build();
    }

    public static Response response(Response.Status status, String field, String message) {
        return response(status, List.of(new Problem(field, message)));
    }
}
