package dev.loomlab.cargotracker.interfaces.rest;

import dev.loomlab.cargotracker.domain.shared.DomainException;
import dev.loomlab.cargotracker.domain.shared.NotFoundException;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.Request;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/**
 * A refused request. 404 when a GET names something that does not exist; a body that refers to an
 * unknown cargo, place or voyage is a bad request (400), like any other invalid input.
 */
@Provider
public class DomainExceptionMapper implements ExceptionMapper<DomainException> {

    @Context
    Request request;

    @Override
    public Response toResponse(DomainException e) {
        boolean lookup = e instanceof NotFoundException && HttpMethod.GET.equals(request.getMethod());
        return ErrorJson.response(lookup ? Response.Status.NOT_FOUND : Response.Status.BAD_REQUEST, e.field(), e.getMessage());
    }
}
