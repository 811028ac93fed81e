package dev.loomlab.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import jakarta.json.JsonObject;
import java.io.StringReader;
import java.util.List;
import org.junit.jupiter.api.Test;

class BadParameterExceptionTest {

    @Test
    void theAnswerNamesErrorParameterAndAllowedInThatOrder() {
        var e = assertThrows(BadParameterException.class, () -> SleepRequest.parse("\"x\"", null, null, null));
        JsonObject body = jakarta.json.Json.createReader(new StringReader(e.toJson())).readObject();
        assertEquals(List.of("error", "parameter", "allowed"), List.copyOf(body.keySet()));
        assertEquals("ms must be an integer in 0..60000, was \"\"x\"\"", body.getString("error"));
        assertEquals("ms", body.getString("parameter"));
        assertEquals("0..60000", body.getString("allowed"));
    }
}
