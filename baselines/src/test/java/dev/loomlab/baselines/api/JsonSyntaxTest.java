package dev.loomlab.baselines.api;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JsonSyntaxTest {

    @ParameterizedTest
    @ValueSource(strings = {"{}", " {\"a\":1} ", "{\"a\":[1,-2.5e+3,0.1,true,false,null,{\"b\":\"\\u00e9\\n\\\"\"}],\"c\":{}}",
            "{\"é\":\"ü\"}", "{\"a\":[]}"})
    void acceptsOneObject(String text) {
        assertNull(JsonSyntax.problemWithObject(text), text);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "   ", "{", "{\"a\":}", "{\"a\" 1}", "{a:1}", "{\"a\":1,}", "{\"a\":01}", "{\"a\":1.}",
            "{\"a\":tru}", "{\"a\":\"x\ty\"}", "{\"a\":\"\\x\"}", "{} {}", "{} x", "[1]", "\"s\"", "42", "null",
            "{\"a\":[1,2}", "{\"a\":-}"})
    void refusesAnythingElseSayingWhy(String text) {
        String problem = JsonSyntax.problemWithObject(text);
        assertNotNull(problem, text);
        assertTrue(!problem.isBlank(), text);
    }

    @org.junit.jupiter.api.Test
    void refusesNestingBeyondItsDepthInsteadOfOverflowingTheStack() {
        String deep = "{\"a\":" + "[".repeat(10_000) + "]".repeat(10_000) + "}";
        assertTrue(JsonSyntax.problemWithObject(deep).contains("nested deeper"));
    }
}
