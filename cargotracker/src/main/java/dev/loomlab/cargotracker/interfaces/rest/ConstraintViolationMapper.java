package dev.loomlab.cargotracker.interfaces.rest;

import jakarta.validation.ConstraintViolation;
import jakarta.validation.ConstraintViolationException;
import jakarta.validation.Path;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.util.Comparator;
import java.util.List;

/** Bean Validation failures of a request body: 400 with one message per bad field, in field order. */
@Provider
public class ConstraintViolationMapper implements ExceptionMapper<ConstraintViolationException> {

    @Override
    public Response toResponse(ConstraintViolationException e) {
        List<ErrorJson.Problem> problems = e.getConstraintViolations().stream()
                .map(v -> new ErrorJson.Problem(fieldOf(v), v.getMessage()))
                .sorted(Comparator.comparing(p -> p.field() == null ? "" : p.field()))
                .toList();
        return ErrorJson.response(Response.Status.BAD_REQUEST, problems);
    }

    /** "register.arg0.unLocode" -> "unLocode"; a missing body has no field. */
    private static String fieldOf(ConstraintViolation<?> violation) {
        String last = null;
        for (Path.Node node : violation.getPropertyPath()) {
            if (node.getKind() == jakarta.validation.ElementKind.PROPERTY) {
                last = node.getName();
            }
        }
        return last;
    }
}
