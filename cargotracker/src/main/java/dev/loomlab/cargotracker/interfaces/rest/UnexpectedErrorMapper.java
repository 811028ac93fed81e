package dev.loomlab.cargotracker.interfaces.rest;

import jakarta.json.bind.JsonbException;
import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.NoContentException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Everything else, in the API's error shape: unreadable JSON is the client's 400, JAX-RS's own
 * answers (404 for unknown paths, 415, ...) keep their status, and a bug is a 500 with its details
 * in the server log, never in the response.
 */
@Provider
public class UnexpectedErrorMapper implements ExceptionMapper<Exception> {

    private static final Logger LOG = Logger.getLogger(UnexpectedErrorMapper.class.getName());

    @Override
    public Response toResponse(Exception e) {
        if (isUnreadableBody(e)) {
            return ErrorJson.response(Response.Status.BAD_REQUEST, "body", "The request body is not valid JSON for this "
                    + "endpoint: " + rootMessage(e));
        }
        if (hasCause(e, NoContentException.class)) {
            return ErrorJson.response(Response.Status.BAD_REQUEST, "body", "A request body is required.");
        }
        if (e instanceof WebApplicationException web) {
            Response.Status status = Response.Status.fromStatusCode(web.getResponse().getStatus());
            return ErrorJson.response(status == null ? Response.Status.BAD_REQUEST : status, null,
                    web.getMessage() == null ? "HTTP " + web.getResponse().getStatus() : web.getMessage());
        }
        LOG.log(Level.SEVERE, "Unexpected error in the REST API", e);
        return ErrorJson.response(Response.Status.INTERNAL_SERVER_ERROR, null,
                "Unexpected server error (" + e.getClass().getSimpleName() + "); see the server log.");
    }

    /** A JSON problem while reading the request, not while writing our answer. */
    private static boolean isUnreadableBody(Throwable e) {
        if (happenedWhileWriting(e)) {
            return false;
        }
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof JsonbException || cause instanceof jakarta.json.JsonException
                    || (cause instanceof ProcessingException && cause != e)) {
                return true;
            }
        }
        return e instanceof ProcessingException;
    }

    private static boolean happenedWhileWriting(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            for (StackTraceElement frame : cause.getStackTrace()) {
                if (frame.getMethodName().equals("writeTo")) {
                    return true;
                }
                if (frame.getMethodName().equals("readFrom")) {
                    return false;
                }
            }
        }
        return false;
    }

    private static boolean hasCause(Throwable e, Class<? extends Throwable> type) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (type.isInstance(cause)) {
                return true;
            }
        }
        return false;
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        String message = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        return message.length() > 200 ? message.substring(0, 197) + "..." : message;
    }
}
