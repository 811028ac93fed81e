package dev.loomlab.cargotracker.interfaces.sse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.ws.rs.sse.OutboundSseEvent;
import jakarta.ws.rs.sse.Sse;
import jakarta.ws.rs.sse.SseBroadcaster;
import jakarta.ws.rs.sse.SseEventSink;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class CargoUpdateBroadcasterTest {

    /** A stream as the broadcaster sees it: open until closed. */
    static final class Stream {
        boolean closed;
        final SseEventSink sink = proxy(SseEventSink.class, (method, args) -> switch (method) {
            case "isClosed" -> closed;
            case "send" -> CompletableFuture.completedFuture(null);
            case "close" -> {
                closed = true;
                yield null;
            }
            default -> throw new UnsupportedOperationException(method);
        });
    }

    private final List<Consumer<SseEventSink>> onClose = new ArrayList<>();
    private final Sse sse = proxy(Sse.class, (method, args) -> switch (method) {
        case "newBroadcaster" -> proxy(SseBroadcaster.class, (m, a) -> {
            if (m.equals("onClose")) {
                @SuppressWarnings("unchecked")
                Consumer<SseEventSink> listener = (Consumer<SseEventSink>) a[0];
                onClose.add(listener);
            }
            return null;
        });
        case "newEventBuilder" -> eventBuilder();
        default -> throw new UnsupportedOperationException(method);
    });

    @Test
    void beyondTheCapAStreamIsRefusedUntilAnotherOneCloses() {
        CargoUpdateBroadcaster broadcaster = new CargoUpdateBroadcaster();
        List<Stream> open = new ArrayList<>();
        for (int i = 0; i < CargoUpdateBroadcaster.MAX_SUBSCRIBERS; i++) {
            Stream stream = new Stream();
            assertTrue(broadcaster.register(stream.sink, sse), "stream " + i);
            open.add(stream);
        }
        assertFalse(broadcaster.register(new Stream().sink, sse), "one over the cap");
        assertEquals(CargoUpdateBroadcaster.MAX_SUBSCRIBERS, broadcaster.subscriberCount());

        open.get(0).closed = true;  // the client went away
        assertTrue(broadcaster.register(new Stream().sink, sse), "a closed stream frees its place");

        onClose.forEach(listener -> listener.accept(open.get(1).sink));  // the broadcaster saw another one close
        assertTrue(broadcaster.register(new Stream().sink, sse));
        assertFalse(broadcaster.register(new Stream().sink, sse));
    }

    private static OutboundSseEvent.Builder eventBuilder() {
        OutboundSseEvent event = proxy(OutboundSseEvent.class, (method, args) -> null);
        OutboundSseEvent.Builder[] builder = new OutboundSseEvent.Builder[1];
        builder[0] = proxy(OutboundSseEvent.Builder.class, (method, args) -> method.equals("build") ? event : builder[0]);
        return builder[0];
    }

    interface Answer {
        Object answer(String method, Object[] args);
    }

    private static <T> T proxy(Class<T> type, Answer answer) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[]{type}, (self, method, args) -> {
            return switch (method.getName()) {
                case "hashCode" -> System.identityHashCode(self);
                case "equals" -> self == args[0];
                case "toString" -> type.getSimpleName();
                default -> answer.answer(method.getName(), args);
            };
        }));
    }
}
