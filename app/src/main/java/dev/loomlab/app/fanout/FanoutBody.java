package dev.loomlab.app.fanout;

import dev.loomlab.api.FanoutRequest;
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

/**
 * Reads the fan-out request's body with JSON-P: one JSON object within lab-api's cap
 * ({@link FanoutRequest#maxBodyBytes()}), else a 400 naming "body".
 */
public final class FanoutBody {

    // Looked up once: the provider lookup per reader is a class-path scan (see JsonBuilders).
    private static final JsonParserFactory PARSERS = Json.createParserFactory(null);

    private FanoutBody() {
    }

    public static JsonObject read(InputStream in) throws IOException {
        int maxBytes = FanoutRequest.maxBodyBytes();
        // One byte more than allowed is enough to know the body is too large, without reading it all.
        byte[] bytes = in == null ? new byte[0] : in.readNBytes(maxBytes + 1);
        if (bytes.length > maxBytes) {
            throw FanoutRequest.bodyTooLarge();
        }
        if (bytes.length == 0) {
            throw FanoutRequest.bodyMissing();
        }
        JsonValue value;
        // A parser rather than a reader: a reader stops after the first value and would accept `{} x`.
        try (JsonParser parser = PARSERS.createParser(new ByteArrayInputStream(bytes))) {
            parser.next();
            value = parser.getValue();
            if (parser.hasNext()) {
                throw FanoutRequest.badBody("body is not valid JSON: content after the first value");
            }
        } catch (JsonException | NoSuchElementException e) {
            throw FanoutRequest.badBody("body is not valid JSON: " + firstLine(e.getMessage()));
        }
        if (value.getValueType() != JsonValue.ValueType.OBJECT) {
            throw FanoutRequest.badBody("body must be a JSON object, was " + value.getValueType().name().toLowerCase());
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
