package dev.loomlab.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class LimitTest {

    @AfterEach
    void forgetTheProperties() {
        for (Limit limit : Limit.values()) {
            System.clearProperty(limit.property());
        }
    }

    @Test
    void theDefaultsAreTheDocumentedCaps() {
        assertEquals(60_000, Limit.SLEEP_MAX_MS.value());
        assertEquals(2_000, Limit.SLEEP_MAX_DEPTH.value());
        assertEquals(100, Limit.FANOUT_MAX_TASKS.value());
        assertEquals(8192, Limit.FANOUT_MAX_BODY_BYTES.value());
    }

    @Test
    void aPropertyMovesTheCapOfEveryRequestThatObeysIt() {
        System.setProperty("loomlab.sleep.maxMs", "500");
        System.setProperty("loomlab.fanout.maxTasks", "2");
        assertEquals(new SleepRequest(500, 500, 0), SleepRequest.parse("500", null, null, null));
        BadParameterException sleep = assertThrows(BadParameterException.class, () -> SleepRequest.parse("501", null, null, null));
        assertEquals("0..500", sleep.allowed());
        BadParameterException task = assertThrows(BadParameterException.class, () -> FanoutRequest.parse(null, null, "501"));
        assertEquals("maxMs", task.parameter());
        assertEquals("1..2", assertThrows(BadParameterException.class, () -> FanoutRequest.parse("3", null, null)).allowed());
    }

    @Test
    void aNegativePropertyClosesTheLimitRatherThanInvertingIt() {
        System.setProperty("loomlab.fanout.maxBodyBytes", "-5");
        assertEquals(0, Limit.FANOUT_MAX_BODY_BYTES.value());
        assertEquals("a JSON object of at most 0 bytes", FanoutRequest.bodyAllowed());
    }
}
