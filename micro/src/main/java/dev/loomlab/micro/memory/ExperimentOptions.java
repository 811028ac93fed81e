package dev.loomlab.micro.memory;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/** The thread-memory experiment's command line. */
public record ExperimentOptions(boolean virtual, int threads, int depth, int holdSeconds, int timeoutSeconds, boolean json) {

    /**
     * Platform threads are capped well under the kernel's pid_max (32768 by default), which all
     * processes on the machine share: running it out breaks every other user's fork().
     */
    public static final int MAX_PLATFORM_THREADS = 20_000;
    /** Virtual threads cost heap: the cap keeps a typo from filling the machine's memory. */
    public static final int MAX_VIRTUAL_THREADS = 2_000_000;
    public static final int MAX_DEPTH = 10_000;

    static final String HELP = """
            usage: java [-Xss<size>] [-Xmx<size>] -cp benchmarks.jar dev.loomlab.micro.memory.ThreadMemoryExperiment [options]
              Starts COUNT threads, each recursing FRAMES calls deep and then parked, and reports how many
              it reached, how long that took, and the process's VmPeak/VmHWM/VmRSS from /proc/self/status.
              -v, --virtual          virtual threads (default: platform threads)
              -n, --threads COUNT    how many threads (default 1000; at most %d platform, %d virtual)
              --depth FRAMES         call depth each thread parks at (default 100, at most %d)
              --hold-seconds S       keep them parked S seconds before releasing them (to look with
                                     grep ^Vm /proc/PID/status; default 0)
              --timeout-seconds S    give up when they are not all parked after S seconds (default 120)
              --json                 one JSON object on stdout instead of the text report
            exit codes: 0 all threads parked at depth; 2 bad arguments; 3 stopped early, the JVM or the OS
              refused another thread (unable to create native thread, or out of heap); 4 a thread's stack
              was too small for the depth (StackOverflowError: raise -Xss or lower --depth); 5 timeout.
              Every case but 2 prints the report of how far it got, releases the threads and exits."""
            .formatted(MAX_PLATFORM_THREADS, MAX_VIRTUAL_THREADS, MAX_DEPTH);

    /** Thrown for a command line that cannot run; {@code help} is set for -h. */
    public static final class UsageException extends Exception {
        final boolean help;

        UsageException(String message, boolean help) {
            super(message);
            this.help = help;
        }
    }

    public static ExperimentOptions parse(String... args) throws UsageException {
        boolean virtual = false;
        boolean json = false;
        int threads = 1000;
        int depth = 100;
        int hold = 0;
        int timeout = 120;
        Deque<String> rest = new ArrayDeque<>(List.of(args));
        while (!rest.isEmpty()) {
            String arg = rest.pop();
            switch (arg) {
                case "-h", "--help" -> throw new UsageException(HELP, true);
                case "-v", "--virtual" -> virtual = true;
                case "--json" -> json = true;
                case "-n", "--threads" -> threads = intValue(arg, rest, 1, Integer.MAX_VALUE);
                case "--depth" -> depth = intValue(arg, rest, 0, MAX_DEPTH);
                case "--hold-seconds" -> hold = intValue(arg, rest, 0, 3600);
                case "--timeout-seconds" -> timeout = intValue(arg, rest, 1, 3600);
                default -> throw new UsageException("unknown option '" + arg + "' (--help lists them)", false);
            }
        }
        int max = virtual ? MAX_VIRTUAL_THREADS : MAX_PLATFORM_THREADS;
        if (threads > max) {
            throw new UsageException("--threads must be at most " + max + " for " + (virtual ? "virtual" : "platform")
                    + " threads, was " + threads, false);
        }
        return new ExperimentOptions(virtual, threads, depth, hold, timeout, json);
    }

    private static int intValue(String option, Deque<String> rest, int min, int max) throws UsageException {
        if (rest.isEmpty()) {
            throw new UsageException(option + " needs a value", false);
        }
        String raw = rest.pop();
        int value;
        try {
            value = Integer.parseInt(raw.replace("_", ""));
        } catch (NumberFormatException e) {
            throw new UsageException(option + " must be an integer, was '" + raw + "'", false);
        }
        if (value < min || value > max) {
            throw new UsageException(option + " must be in " + min + ".." + max + ", was " + value, false);
        }
        return value;
    }

    public String kind() {
        return virtual ? "virtual" : "platform";
    }
}
