package dev.loomlab.micro.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ExperimentOptionsTest {

    @Test
    void readsEveryOption() throws Exception {
        assertEquals(new ExperimentOptions(true, 100_000, 7, 2, 9, true),
                ExperimentOptions.parse("-v", "-n", "100_000", "--depth", "7", "--hold-seconds", "2", "--timeout-seconds", "9", "--json"));
        assertEquals(new ExperimentOptions(false, 1000, 100, 0, 120, false), ExperimentOptions.parse());
    }

    @Test
    void platformThreadsAreCappedBelowTheMachinesPidLimit() throws Exception {
        var e = assertThrows(ExperimentOptions.UsageException.class, () -> ExperimentOptions.parse("-n", "20001"));
        assertTrue(e.getMessage().contains("at most 20000 for platform"), e.getMessage());
        assertEquals(20_001, ExperimentOptions.parse("-v", "-n", "20001").threads());
    }

    @Test
    void refusesBadValues() {
        assertThrows(ExperimentOptions.UsageException.class, () -> ExperimentOptions.parse("--depth", "-1"));
        assertThrows(ExperimentOptions.UsageException.class, () -> ExperimentOptions.parse("-n", "many"));
        assertThrows(ExperimentOptions.UsageException.class, () -> ExperimentOptions.parse("-n"));
        assertThrows(ExperimentOptions.UsageException.class, () -> ExperimentOptions.parse("--frobnicate"));
    }
}
