package dev.loomlab.app.api;


import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/** 400 with a JSON body that names the parameter and its allowed range. */
@Provider
public class BadParameterMapper implements ExceptionMapper<BadParameterException> {

    @Override
    public Response toResponse(BadParameterException e) {
        var body = JsonBuilders.object()
                .add("error", e.getMessage())
                .add("parameter", e.parameter())
                .add("allowed", e.allowed())
                .build();
        return Response.status(Response.Status.BAD_REQUEST).type(MediaType.APPLICATION_JSON_TYPE).entity(body).build();
    }
}
