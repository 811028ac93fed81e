package dev.loomlab.micro.memory;

import dev.loomlab.api.Json;

/**
 * What one run of the experiment measured: how far it got and what the process held then.
 *
 * @param stackSizeKb      the platform thread stack size in force (-Xss, or the JVM's default)
 * @param stackSizeGiven   whether -Xss (or -XX:ThreadStackSize) was given
 * @param heapBeforeBytes  heap in use after a full GC, before any thread started
 * @param heapAfterBytes   heap in use after a full GC, with the threads parked (virtual stacks live there)
 */
record ExperimentResult(ExperimentOptions options, Outcome outcome, String message, int started, int parked,
                        int failed, long startMs, long parkedMs, long stackSizeKb, boolean stackSizeGiven,
                        ProcessMemory before, ProcessMemory after, long heapBeforeBytes, long heapAfterBytes) {

    enum Outcome {
        COMPLETE(0), REFUSED(3), STACK_TOO_SMALL(4), TIMEOUT(5);

        final int exitCode;

        Outcome(int exitCode) {
            this.exitCode = exitCode;
        }
    }

    /** Growth per parked thread, in bytes; 0 when none parked. */
    long perThreadBytes(long beforeKb, long afterKb) {
        return parked == 0 ? 0 : (afterKb - beforeKb) * 1024 / parked;
    }

    String toJson() {
        return Json.object()
                .add("kind", options.kind())
                .add("requested", options.threads())
                .add("started", started)
                .add("parked", parked)
                .add("failed", failed)
                .add("depth", options.depth())
                .add("outcome", outcome.name().toLowerCase().replace('_', '-'))
                .add("exitCode", outcome.exitCode)
                .add("message", message)
                .add("startMs", startMs)
                .add("parkedMs", parkedMs)
                .add("stackSizeKb", stackSizeKb)
                .add("stackSizeGiven", stackSizeGiven)
                .add("maxHeapBytes", Runtime.getRuntime().maxMemory())
                .add("before", memoryJson(before))
                .add("after", memoryJson(after))
                .add("heapBeforeBytes", heapBeforeBytes)
                .add("heapAfterBytes", heapAfterBytes)
                .add("perThreadBytes", Json.object()
                        .add("vmPeak", perThreadBytes(before.vmPeakKb(), after.vmPeakKb()))
                        .add("vmSize", perThreadBytes(before.vmSizeKb(), after.vmSizeKb()))
                        .add("vmHwm", perThreadBytes(before.vmHwmKb(), after.vmHwmKb()))
                        .add("vmRss", perThreadBytes(before.vmRssKb(), after.vmRssKb()))
                        .add("heap", parked == 0 ? 0 : (heapAfterBytes - heapBeforeBytes) / parked))
                .toString();
    }

    String toText() {
        String xss = stackSizeGiven ? "-Xss" + stackSizeKb + "k" : "default stack size " + stackSizeKb + " KiB";
        StringBuilder out = new StringBuilder();
        out.append(String.format("%d %s threads requested, depth %d, %s%n", options.threads(), options.kind(), options.depth(), xss));
        out.append(String.format("reached: %d parked at depth (%d started, %d failed): %s%n", parked, started, failed, message));
        out.append(String.format("time: %d ms to start them, %d ms until all parked%n", startMs, parkedMs));
        out.append(String.format("%-8s %14s %14s %14s%n", "", "before", "with threads", "per thread"));
        row(out, "VmPeak", before.vmPeakKb(), after.vmPeakKb());
        row(out, "VmSize", before.vmSizeKb(), after.vmSizeKb());
        row(out, "VmHWM", before.vmHwmKb(), after.vmHwmKb());
        row(out, "VmRSS", before.vmRssKb(), after.vmRssKb());
        row(out, "heap", heapBeforeBytes / 1024, heapAfterBytes / 1024);
        out.append(String.format("%-8s %14d %14d%n", "Threads", before.threads(), after.threads()));
        return out.toString();
    }

    private void row(StringBuilder out, String name, long beforeKb, long afterKb) {
        out.append(String.format("%-8s %11d KiB %11d KiB %10.1f KiB%n", name, beforeKb, afterKb,
                perThreadBytes(beforeKb, afterKb) / 1024.0));
    }

    private static Json memoryJson(ProcessMemory memory) {
        return Json.object()
                .add("vmPeakKb", memory.vmPeakKb())
                .add("vmSizeKb", memory.vmSizeKb())
                .add("vmHwmKb", memory.vmHwmKb())
                .add("vmRssKb", memory.vmRssKb())
                .add("threads", memory.threads());
    }
}
