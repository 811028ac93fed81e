package dev.loomlab.baselines;

import dev.loomlab.baselines.http.JdkServerKind;
import dev.loomlab.baselines.http.JdkServerMain;
import java.io.UncheckedIOException;

/** {@code java -jar baselines.jar SERVER}: one entry point for the plain-JDK servers of this module. */
public final class Main {

    /** Exit code for a command line the program cannot run. */
    public static final int USAGE = 2;
    /** Exit code when the server cannot start (e.g. the port is taken). */
    public static final int CANNOT_START = 1;

    static final String USAGE_TEXT = """
            usage: java [-Dport=8080] [-Dhost=127.0.0.1] [-Dthreads=10000] -jar baselines.jar SERVER
                     SERVER: %s
                     (-Dthreads is the pool size of executor and the limit of virtual-bounded)""";

    private Main() {
    }

    public static void main(String[] args) throws InterruptedException {
        if (args.length == 0 || args[0].equals("-h") || args[0].equals("--help")) {
            System.out.println(usage());
            System.exit(args.length == 0 ? USAGE : 0);
        }
        if (args.length > 1) {
            fail(USAGE, "a server takes no arguments, only -D options before -jar: " + String.join(" ", args));
        }
        try {
            JdkServerMain.run(JdkServerKind.fromCliName(args[0]));
        } catch (IllegalArgumentException e) {
            fail(USAGE, e.getMessage());
        } catch (UncheckedIOException e) {
            fail(CANNOT_START, e.getMessage());
        }
    }

    private static String usage() {
        return USAGE_TEXT.formatted(JdkServerKind.cliNames());
    }

    private static void fail(int code, String message) {
        System.err.println("baselines: " + message);
        if (code == USAGE) {
            System.err.println(usage());
        }
        System.exit(code);
    }
}
