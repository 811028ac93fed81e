package dev.loomlab.baselines.api;

import dev.loomlab.api.Json;

/** A status and a JSON body, for whichever HTTP server carries it. */
public record ApiResponse(int status, String json) {

    static ApiResponse ok(Json body) {
        return new ApiResponse(200, body.toString());
    }

    static ApiResponse error(int status, String message) {
        return new ApiResponse(status, Json.object().add("error", message).toString());
    }
}
