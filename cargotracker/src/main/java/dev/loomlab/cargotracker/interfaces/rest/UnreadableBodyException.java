package dev.loomlab.cargotracker.interfaces.rest;

import jakarta.ws.rs.ProcessingException;

/**
 * A request body that could not be read as the endpoint's JSON: the client's mistake (400). Only
 * {@link UnreadableBodyInterceptor} throws it, around reading, so a JSON failure while writing an
 * answer never carries it and stays a server error.
 */
public class UnreadableBodyException extends ProcessingException {

    private static final long serialVersionUID = 1L;

    public UnreadableBodyException(Throwable cause) {
        super("unreadable request body", cause);
    }
}
