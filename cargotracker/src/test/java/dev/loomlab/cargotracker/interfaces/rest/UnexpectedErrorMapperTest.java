package dev.loomlab.cargotracker.interfaces.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.bind.JsonbException;
import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.core.NoContentException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ReaderInterceptorContext;
import java.io.IOException;
import java.lang.reflect.Proxy;
import org.junit.jupiter.api.Test;

/**
 * Read or write is told by the exception's type: the same JSON-B failure, wrapped the way the
 * JAX-RS runtime wraps it, is the client's 400 when it came out of reading a body and our 500
 * when it came out of writing an answer.
 */
class UnexpectedErrorMapperTest {

    /** What JAX-RS' JSON-B provider throws when JSON-B fails, reading or writing alike. */
    private static ProcessingException jsonbFailure(String message) {
        return new ProcessingException("Error processing the entity stream.", new JsonbException(message));
    }

    /** Runs the interceptor around a reader that fails with {@code failure}; returns what comes out. */
    private static Exception readingFails(Exception failure) {
        ReaderInterceptorContext context = (ReaderInterceptorContext) Proxy.newProxyInstance(
                UnexpectedErrorMapperTest.class.getClassLoader(), new Class<?>[] {ReaderInterceptorContext.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("proceed")) {
                        throw failure;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
        return assertThrows(Exception.class, () -> new UnreadableBodyInterceptor().aroundReadFrom(context));
    }

    @Test
    void aJsonFailureWhileReadingTheBodyIsTheClientsBadRequest() {
        Exception read = readingFails(jsonbFailure("Unexpected char 125 at (line no=1, column no=12)"));
        assertTrue(read instanceof UnreadableBodyException, read.toString());

        // The runtime may wrap it once more before it reaches the mapper.
        UnexpectedErrorMapper.Answer answer = UnexpectedErrorMapper.answerFor(new ProcessingException("mapped", read));
        assertEquals(Response.Status.BAD_REQUEST, answer.status());
        assertEquals("body", answer.field());
        assertTrue(answer.message().startsWith("The request body is not valid JSON for this endpoint: "), answer.message());
        assertTrue(answer.message().endsWith("Unexpected char 125 at (line no=1, column no=12)"), answer.message());
    }

    @Test
    void theSameFailureWhileWritingTheAnswerIsAServerError() {
        UnexpectedErrorMapper.Answer answer = UnexpectedErrorMapper.answerFor(jsonbFailure("cannot serialize CargoJson"));
        assertEquals(Response.Status.INTERNAL_SERVER_ERROR, answer.status());
        assertNull(answer.field());
        assertEquals("Unexpected server error (ProcessingException); see the server log.", answer.message(),
                "the details stay in the log");
    }

    @Test
    void failuresOfReadingThatAreNotJsonPassUnmarked() {
        IllegalStateException notJson = new IllegalStateException("a bug in a reader");
        assertSame(notJson, readingFails(notJson));
        assertEquals(Response.Status.INTERNAL_SERVER_ERROR, UnexpectedErrorMapper.answerFor(notJson).status());

        NoContentException empty = new NoContentException("no body");
        assertSame(empty, readingFails(empty));
        UnexpectedErrorMapper.Answer answer = UnexpectedErrorMapper.answerFor(empty);
        assertEquals(Response.Status.BAD_REQUEST, answer.status());
        assertEquals("A request body is required.", answer.message());
    }

    @Test
    void aReadThatSucceedsIsReturnedUntouched() throws IOException {
        Object body = new Object();
        ReaderInterceptorContext context = (ReaderInterceptorContext) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[] {ReaderInterceptorContext.class},
                (proxy, method, args) -> method.getName().equals("proceed") ? body : null);
        assertSame(body, new UnreadableBodyInterceptor().aroundReadFrom(context));
    }
}
