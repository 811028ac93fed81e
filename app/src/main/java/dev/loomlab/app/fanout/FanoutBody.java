package dev.loomlab.app.fanout;

import dev.loomlab.app.api.BadParameterException;
import dev.loomlab.app.api.QueryParameters;
import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import jakarta.json.stream.JsonParser;
import jakarta.json.stream.JsonParserFactory;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.NoSuchElementException;

/** Reads the fan-out request's body: one JSON object of at most a few KB, else a 400 naming "body". */
public final class FanoutBody {

    /** Largest body in bytes; raise with {@code -Dloomlab.fanout.maxBodyBytes=}. */
    public static final String MAX_BYTES_PROPERTY = "loomlab.fanout.maxBodyBytes";
    public static final int DEFAULT_MAX_BYTES = 8192;
    // Looked up once: the provider lookup per reader is a class-path scan (see JsonBuilders).
    private static final JsonParserFactory PARSERS = Json.createParserFactory(null);

    private FanoutBody() {
    }

    public static JsonObject read(InputStream in) throws IOException {
        int maxBytes = QueryParameters.cap(MAX_BYTES_PROPERTY, DEFAULT_MAX_BYTES);
        String allowed = "a JSON object of at most " + maxBytes + " bytes";
        // One byte more than allowed is enough to know the body is too large, without reading it all.
        byte[] bytes = in == null ? new byte[0] : in.readNBytes(maxBytes + 1);
        if (bytes.length > maxBytes) {
            throw new BadParameterException("body", allowed, "body is larger than " + maxBytes + " bytes");
        }
        if (bytes.length == 0) {
            throw new BadParameterException("body", allowed, "body is required: " + allowed);
        }
        JsonValue value;
        // A parser rather than a reader: a reader stops after the first value and would accept `{} x`.
        try (JsonParser parser = PARSERS.createParser(new ByteArrayInputStream(bytes))) {
            parser.next();
            value = parser.getValue();
            if (parser.hasNext()) {
                throw new BadParameterException("body", allowed, "body is not valid JSON: content after the first value");
            }
        } catch (JsonException | NoSuchElementException e) {
            throw new BadParameterException("body", allowed, "body is not valid JSON: " + firstLine(e.getMessage()));
        }
        if (value.getValueType() != JsonValue.ValueType.OBJECT) {
            throw new BadParameterException("body", allowed, "body must be a JSON object, was " + value.getValueType().name().toLowerCase());
        }
        return value.asJsonObject();
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "unreadable";
        }
        String line = message.lines().findFirst().orElse("");
        return line.length() <= 120 ? line : line.substring(0, 120) + "…";
    }
}
