package dev.loomlab.cargotracker.interfaces.rest;

import jakarta.json.JsonException;
import jakarta.json.bind.JsonbException;
import jakarta.ws.rs.ext.Provider;
import jakarta.ws.rs.ext.ReaderInterceptor;
import jakarta.ws.rs.ext.ReaderInterceptorContext;
import java.io.IOException;

/**
 * Marks JSON failures of reading a request body as {@link UnreadableBodyException}. Readers and
 * writers fail with the same exception types (JSON-B's, wrapped by JAX-RS), so the error mapper
 * tells the client's bad body from our own failure by this mark, set where reading happens.
 */
@Provider
public class UnreadableBodyInterceptor implements ReaderInterceptor {

    @Override
    public Object aroundReadFrom(ReaderInterceptorContext context) throws IOException {
        try {
            return context.proceed();
        } catch (RuntimeException e) {
            if (isJsonProblem(e)) {
                throw new UnreadableBodyException(e);
            }
            throw e;
        }
    }

    private static boolean isJsonProblem(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof JsonbException || cause instanceof JsonException) {
                return true;
            }
        }
        return false;
    }
}
