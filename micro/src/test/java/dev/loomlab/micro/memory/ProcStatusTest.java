package dev.loomlab.micro.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ProcStatusTest {

    private static final String SAMPLE = """
            Name:\tjava
            Umask:\t0022
            State:\tS (sleeping)
            Pid:\t4242
            VmPeak:\t 8945520 kB
            VmSize:\t 8880000 kB
            VmLck:\t       0 kB
            VmHWM:\t  143764 kB
            VmRSS:\t  143700 kB
            RssAnon:\t  120000 kB
            Threads:\t2019
            SigQ:\t0/96365
            """;

    @Test
    void readsTheMemoryLinesInKib() {
        assertEquals(new ProcessMemory(8_945_520, 8_880_000, 143_764, 143_700, 2019), ProcStatus.parse(SAMPLE));
    }

    @Test
    void aMissingLineIsAnErrorNotAZero() {
        var e = assertThrows(IllegalArgumentException.class, () -> ProcStatus.parse(SAMPLE.replaceAll("VmHWM.*\n", "")));
        assertEquals("no VmHWM line in the status text", e.getMessage());
    }

    @Test
    void aValueInAnotherUnitIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> ProcStatus.parse(SAMPLE.replace("143764 kB", "143764 MB")));
        assertThrows(IllegalArgumentException.class, () -> ProcStatus.parse(SAMPLE.replace("Threads:\t2019", "Threads:\tmany")));
    }

    @Test
    void readsThisProcess() {
        ProcessMemory self = ProcStatus.readSelf();
        assertTrue(self.vmPeakKb() >= self.vmSizeKb(), self.toString());
        assertTrue(self.vmHwmKb() >= self.vmRssKb() && self.vmRssKb() > 0, self.toString());
        assertTrue(self.threads() > 1, self.toString());
    }
}
