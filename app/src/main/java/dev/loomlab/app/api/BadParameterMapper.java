package dev.loomlab.app.api;

import dev.loomlab.api.BadParameterException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/** The lab's 400 ({@link BadParameterException#toJson()}: the error, the parameter and what it allows) for JAX-RS. */
@Provider
public class BadParameterMapper implements ExceptionMapper<BadParameterException> {

    @Override
    public Response toResponse(BadParameterException e) {
        return Response.status(Response.Status.BAD_REQUEST).type(MediaType.APPLICATION_JSON_TYPE).entity(e.toJson()).build();
    }
}
