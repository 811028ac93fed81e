package dev.loomlab.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class SleepRequestTest {

    @Test
    void defaultsToTheWarsHundredMillisecondsAtDepthZero() {
        assertEquals(new SleepRequest(100, 100, 0), SleepRequest.parse(null, null, null, null));
    }

    @Test
    void drawsUniformlyWithinMinAndMax() {
        SleepRequest request = SleepRequest.parse(null, "20", "22", "5");
        for (int i = 0; i < 200; i++) {
            int ms = request.drawMs();
            assertTrue(ms >= 20 && ms <= 22, "drew " + ms);
        }
    }

    @ParameterizedTest(name = "ms={0} min={1} max={2} depth={3} -> {4}")
    @CsvSource(nullValues = "-", value = {
            "abc, -, -, -, ms",
            "60001, -, -, -, ms",
            "-1, -, -, -, ms",
            "10, -, -, 2001, depth",
            "10, 1, 2, -, ms",
            "-, 5, -, -, max",
            "-, 9, 3, -, min",
    })
    void refusesWhatTheWarRefuses(String ms, String min, String max, String depth, String parameter) {
        var e = assertThrows(BadParameterException.class, () -> SleepRequest.parse(ms, min, max, depth));
        assertEquals(parameter, e.parameter());
    }

    @Test
    void descendsTheRequestedNumberOfFrames() throws InterruptedException {
        assertEquals(37, SleepRequest.descendThenSleep(37, 0));
    }
}
