package dev.loomlab.micro.memory;

import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.VMOption;
import dev.loomlab.micro.memory.ExperimentResult.Outcome;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.concurrent.TimeUnit;

/**
 * How much memory does a parked thread cost? Starts N platform (or virtual) threads, parks each
 * at a chosen call depth, and reads the process's memory from /proc/self/status.
 * <pre>java [-Xss256k] -cp benchmarks.jar dev.loomlab.micro.memory.ThreadMemoryExperiment [-v] -n 10000 --depth 100</pre>
 * Hitting a limit is a result, not a crash: the report says how far it got, the threads are
 * released and the exit code says what stopped it ({@link ExperimentOptions#HELP}).
 */
public final class ThreadMemoryExperiment {

    private ThreadMemoryExperiment() {
    }

    public static void main(String[] args) throws InterruptedException {
        System.exit(run(args));
    }

    /** Runs with command-line arguments; returns the exit code. */
    public static int run(String... args) throws InterruptedException {
        ExperimentOptions options;
        try {
            options = ExperimentOptions.parse(args);
        } catch (ExperimentOptions.UsageException e) {
            (e.help ? System.out : System.err).println(e.help ? e.getMessage() : "memory: " + e.getMessage());
            return e.help ? 0 : 2;
        }
        ExperimentResult result;
        try {
            result = measure(options);
        } catch (UncheckedIOException e) {
            System.err.println("memory: " + e.getMessage());
            return 1;
        }
        System.out.println(options.json() ? result.toJson() : result.toText());
        return result.outcome().exitCode;
    }

    static ExperimentResult measure(ExperimentOptions options) throws InterruptedException {
        VMOption stackSize = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class).getVMOption("ThreadStackSize");
        // Created first: its bookkeeping (list, heap reserve) belongs to the baseline, not to the threads.
        ParkedThreads threads = new ParkedThreads(options.virtual(), options.depth(), options.threads());
        long heapBefore = heapInUseAfterGc();
        ProcessMemory before = ProcStatus.readSelf();

        long t0 = System.nanoTime();
        long startNanos = 0;
        long parkedNanos = 0;
        boolean settled = false;
        ProcessMemory after = null;
        long heapAfter = 0;
        try {
            threads.start(options.threads());
            startNanos = System.nanoTime() - t0;
            // After a full heap some threads may never get to run again: do not wait the whole timeout for them.
            settled = threads.awaitSettled(threads.releasedEarly() ? Math.min(5, options.timeoutSeconds())
                    : options.timeoutSeconds(), TimeUnit.SECONDS);
            parkedNanos = System.nanoTime() - t0;
            // Read while every thread is parked: this is the cost of holding them.
            after = ProcStatus.readSelf();
            heapAfter = heapInUseAfterGc();
            hold(options, threads);
        } catch (OutOfMemoryError e) {
            // The heap ran out after the threads started (their stacks fill it): release them, then report.
            threads.refused(e);
        } finally {
            threads.releaseAll(threads.releasedEarly() ? 5 : 30, TimeUnit.SECONDS);
        }
        if (after == null || threads.releasedEarly()) {
            // VmPeak and VmHWM are high-water marks: they still show what the parked threads took.
            after = ProcStatus.readSelf();
        }
        return new ExperimentResult(options, outcome(threads, settled), message(options, threads, settled),
                threads.started(), threads.parked(), threads.failed(),
                TimeUnit.NANOSECONDS.toMillis(startNanos), TimeUnit.NANOSECONDS.toMillis(parkedNanos),
                Long.parseLong(stackSize.getValue()), stackSize.getOrigin() != VMOption.Origin.DEFAULT,
                before, after, heapBefore, heapAfter);
    }

    private static void hold(ExperimentOptions options, ParkedThreads threads) throws InterruptedException {
        if (options.holdSeconds() > 0) {
            System.err.printf("holding %d parked threads for %d s: grep ^Vm /proc/%d/status%n",
                    threads.parked(), options.holdSeconds(), ProcessHandle.current().pid());
            Thread.sleep(TimeUnit.SECONDS.toMillis(options.holdSeconds()));
        }
    }

    private static Outcome outcome(ParkedThreads threads, boolean settled) {
        if (threads.refusal() != null || threads.firstFailure() instanceof OutOfMemoryError) {
            return Outcome.REFUSED;
        }
        if (threads.failed() > 0) {
            return Outcome.STACK_TOO_SMALL;
        }
        return settled ? Outcome.COMPLETE : Outcome.TIMEOUT;
    }

    private static String message(ExperimentOptions options, ParkedThreads threads, boolean settled) {
        String released = threads.releasedEarly()
                ? " (threads released before the reading: VmRSS is after release, VmPeak/VmHWM are the peaks)" : "";
        if (threads.refusal() != null) {
            return "stopped after " + threads.started() + " of " + options.threads() + ": " + describe(threads.refusal()) + released;
        }
        if (threads.failed() > 0) {
            Throwable first = threads.firstFailure();
            return threads.failed() + " threads failed on the way down: " + describe(first)
                    + (first instanceof StackOverflowError ? " (raise -Xss or lower --depth)" : "") + released;
        }
        if (!settled) {
            return "only " + threads.parked() + " of " + threads.started() + " parked within " + options.timeoutSeconds() + " s";
        }
        return "all parked";
    }

    private static String describe(Throwable t) {
        return t.getClass().getSimpleName() + (t.getMessage() == null ? "" : ": " + t.getMessage());
    }

    /** Live heap only: garbage from start-up would otherwise blur what the parked stacks hold. */
    private static long heapInUseAfterGc() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        memory.gc();
        return memory.getHeapMemoryUsage().getUsed();
    }
}
