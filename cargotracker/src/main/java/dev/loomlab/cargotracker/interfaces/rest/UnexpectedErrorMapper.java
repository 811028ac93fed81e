package dev.loomlab.cargotracker.interfaces.rest;

import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.NoContentException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Everything else, in the API's error shape: an unreadable body is the client's 400, JAX-RS's own
 * answers (404 for unknown paths, 415, ...) keep their status, and a bug is a 500 with its details
 * in the server log, never in the response. Decided by exception type alone: a body that could not
 * be read carries {@link UnreadableBodyException}; the same JSON-B failure while writing our answer
 * does not, and is a 500.
 */
@Provider
public class UnexpectedErrorMapper implements ExceptionMapper<Exception> {

    private static final Logger LOG = Logger.getLogger(UnexpectedErrorMapper.class.getName());

    /** What the client is told. */
    record Answer(Response.Status status, String field, String message) {
    }

    @Override
    public Response toResponse(Exception e) {
        Answer answer = answerFor(e);
        if (answer.status() == Response.Status.INTERNAL_SERVER_ERROR) {
            LOG.log(Level.SEVERE, "Unexpected error in the REST API", e);
        }
        return ErrorJson.response(answer.status(), answer.field(), answer.message());
    }

    static Answer answerFor(Exception e) {
        if (hasCause(e, UnreadableBodyException.class)) {
            return new Answer(Response.Status.BAD_REQUEST, "body", "The request body is not valid JSON for this "
                    + "endpoint: " + rootMessage(e));
        }
        if (hasCause(e, NoContentException.class)) {
            return new Answer(Response.Status.BAD_REQUEST, "body", "A request body is required.");
        }
        if (e instanceof WebApplicationException web) {
            Response.Status status = Response.Status.fromStatusCode(web.getResponse().getStatus());
            return new Answer(status == null ? Response.Status.BAD_REQUEST : status, null,
                    web.getMessage() == null ? "HTTP " + web.getResponse().getStatus() : web.getMessage());
        }
        return new Answer(Response.Status.INTERNAL_SERVER_ERROR, null,
                "Unexpected server error (" + e.getClass().getSimpleName() + "); see the server log.");
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
