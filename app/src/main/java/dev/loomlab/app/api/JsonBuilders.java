package dev.loomlab.app.api;

import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonBuilderFactory;
import jakarta.json.JsonObjectBuilder;

/**
 * One JSON builder factory for the whole app. {@code Json.createObjectBuilder()} looks the JSON
 * provider up through the class loader on every call (a ServiceLoader scan of every API jar); under
 * load that lookup was 10 % of the server's CPU samples (docs/virtual-threads-on-grizzly.md).
 */
public final class JsonBuilders {

    private static final JsonBuilderFactory FACTORY = Json.createBuilderFactory(null);

    private JsonBuilders() {
    }

    public static JsonObjectBuilder object() {
        return FACTORY.createObjectBuilder();
    }

    public static JsonArrayBuilder array() {
        return FACTORY.createArrayBuilder();
    }
}
