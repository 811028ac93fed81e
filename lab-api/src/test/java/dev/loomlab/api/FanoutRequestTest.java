package dev.loomlab.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class FanoutRequestTest {

    @Test
    void queryDefaultsToTenTasksOfFiftyToAHundredMs() {
        FanoutRequest request = FanoutRequest.parse(null, null, null);
        assertEquals(10, request.tasks());
        assertEquals(50, request.sleep().minMs());
        assertEquals(100, request.sleep().maxMs());
        assertEquals(0, request.sleep().depth());
    }

    @Test
    void readsTheQueryStringsOwnNames() {
        FanoutRequest request = FanoutRequest.parse(QueryParameters.parse("tasks=3&minMs=7&maxMs=9&ms=1"));
        assertEquals(new FanoutRequest(3, new SleepRequest(7, 9, 0)), request);
    }

    @Test
    void queryOutOfRangeNamesTheParameter() {
        assertEquals("tasks", assertThrows(BadParameterException.class, () -> FanoutRequest.parse("101", null, null)).parameter());
        assertEquals("tasks", assertThrows(BadParameterException.class, () -> FanoutRequest.parse("0", null, null)).parameter());
        assertEquals("maxMs", assertThrows(BadParameterException.class, () -> FanoutRequest.parse(null, null, "60001")).parameter());
        BadParameterException reversed = assertThrows(BadParameterException.class, () -> FanoutRequest.parse(null, "90", "10"));
        assertEquals("minMs", reversed.parameter());
        assertEquals("0..10 (at most maxMs)", reversed.allowed());
    }

    @Test
    void aRefusedBodyNamesBodyAndItsCap() {
        BadParameterException tooLarge = FanoutRequest.bodyTooLarge();
        assertEquals("body", tooLarge.parameter());
        assertEquals("a JSON object of at most 8192 bytes", tooLarge.allowed());
        assertEquals("body is larger than 8192 bytes", tooLarge.getMessage());
        assertEquals("body is required: a JSON object of at most 8192 bytes", FanoutRequest.bodyMissing().getMessage());
    }
}
