package dev.loomlab.micro.echo;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * This process's own resource use, as the kernel accounts it: CPU time (user + system, read by
 * the JDK from /proc/self/stat) and peak resident set size (VmHWM in /proc/self/status, the
 * kernel's high-water mark, so no sampling can miss the peak).
 */
record ProcessStats(Duration cpu, long peakRssKb, int peakPlatformThreads) {

    static ProcessStats now() {
        Duration cpu = ProcessHandle.current().info().totalCpuDuration().orElse(Duration.ZERO);
        return new ProcessStats(cpu, peakRssKb(Path.of("/proc/self/status")),
                ManagementFactory.getThreadMXBean().getPeakThreadCount());
    }

    /** VmHWM in kB, or -1 where there is no /proc (not Linux). */
    static long peakRssKb(Path status) {
        try {
            for (String line : Files.readAllLines(status)) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(line.replaceAll("\\D+", ""));
                }
            }
        } catch (IOException | NumberFormatException e) {
            // Not Linux, or an unexpected format: report "unknown" rather than fail the run.
        }
        return -1;
    }
}
