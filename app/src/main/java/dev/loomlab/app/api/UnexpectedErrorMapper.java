package dev.loomlab.app.api;


import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.util.logging.Level;
import java.util.logging.Logger;

/** Anything unplanned becomes a short JSON error: the stack trace goes to the server log, never to the client. */
@Provider
public class UnexpectedErrorMapper implements ExceptionMapper<Throwable> {

    private static final Logger LOG = Logger.getLogger(UnexpectedErrorMapper.class.getName());

    @Override
    public Response toResponse(Throwable t) {
        if (t instanceof WebApplicationException wae) {
            Response original = wae.getResponse();
            return Response.status(original.getStatus()).type(MediaType.APPLICATION_JSON_TYPE)
                    .entity(JsonBuilders.object().add("error", original.getStatusInfo().getReasonPhrase()).build())
                    .build();
        }
        LOG.log(Level.WARNING, "request failed", t);
        return Response.serverError().type(MediaType.APPLICATION_JSON_TYPE)
                .entity(JsonBuilders.object().add("error", t.getClass().getSimpleName()).build())
                .build();
    }
}
