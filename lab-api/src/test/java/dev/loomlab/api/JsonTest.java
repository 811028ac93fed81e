package dev.loomlab.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.json.JsonObject;
import java.io.StringReader;
import org.junit.jupiter.api.Test;

class JsonTest {

    @Test
    void writesWhatAJsonParserReadsBack() {
        String weird = "quote\" backslash\\ newline\n tab\t bell\u0007 é";
        String text = Json.object().add("s", weird).add("n", -5L).add("b", true)
                .add("o", Json.object().addNullable("none", null).addNullable("some", 3)).addEmptyArray("a").toString();
        JsonObject parsed = jakarta.json.Json.createReader(new StringReader(text)).readObject();
        assertEquals(weird, parsed.getString("s"));
        assertEquals(-5, parsed.getInt("n"));
        assertEquals(true, parsed.getBoolean("b"));
        assertEquals(true, parsed.getJsonObject("o").isNull("none"));
        assertEquals(3, parsed.getJsonObject("o").getInt("some"));
        assertEquals(0, parsed.getJsonArray("a").size());
    }
}
