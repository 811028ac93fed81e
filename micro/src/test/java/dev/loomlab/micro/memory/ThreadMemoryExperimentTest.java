package dev.loomlab.micro.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The experiment as a user runs it: its own JVM, so the "before" numbers are a fresh process's. */
class ThreadMemoryExperimentTest {

    @TempDir
    Path workDir;

    record Run(int exitCode, String stdout) {
        /** The report is the last line: the JVM's own warnings (e.g. a failed pthread_create) go to stdout too. */
        JsonObject json() {
            String[] lines = stdout.strip().split("\n");
            return Json.createReader(new StringReader(lines[lines.length - 1])).readObject();
        }
    }

    @Test
    void twoThousandVirtualThreadsRaiseThePeak() throws Exception {
        Run run = runJava(List.of(), "-v", "-n", "2000", "--depth", "100", "--json");
        assertEquals(0, run.exitCode(), run.stdout());
        JsonObject result = run.json();
        assertEquals(2000, result.getInt("parked"));
        assertEquals("complete", result.getString("outcome"));
        long hwmBefore = result.getJsonObject("before").getJsonNumber("vmHwmKb").longValue();
        long hwmAfter = result.getJsonObject("after").getJsonNumber("vmHwmKb").longValue();
        assertTrue(hwmAfter > hwmBefore, "VmHWM " + hwmBefore + " -> " + hwmAfter);
        // Parked virtual threads keep their stacks on the heap.
        assertTrue(result.getJsonNumber("heapAfterBytes").longValue() > result.getJsonNumber("heapBeforeBytes").longValue());
    }

    @Test
    void platformThreadsAreMeasuredWhileTheyAreParked() throws Exception {
        Run run = runJava(List.of(), "-n", "300", "--depth", "10", "--json");
        assertEquals(0, run.exitCode(), run.stdout());
        JsonObject result = run.json();
        // The kernel counts every parked thread: the reading was taken before they were released.
        int extraThreads = result.getJsonObject("after").getInt("threads") - result.getJsonObject("before").getInt("threads");
        assertTrue(extraThreads >= 300, "only " + extraThreads + " more kernel threads");
        // Each reserves a whole stack of address space, 1 MiB by default.
        assertTrue(result.getJsonObject("perThreadBytes").getJsonNumber("vmSize").longValue() >= 1000 * 1024);
        // ... of native memory: the heap holds only the Thread objects.
        assertTrue(result.getJsonObject("perThreadBytes").getJsonNumber("heap").longValue() < 4096, result.toString());
    }

    @Test
    void aRefusedThreadEndsTheRunCleanlyWithHowFarItGot() throws Exception {
        // A 2 GB address-space limit leaves room for a few hundred 1 MB stacks, then pthread_create fails.
        Run run = runJava(List.of("-Xmx64m", "-XX:CompressedClassSpaceSize=64m", "-XX:ReservedCodeCacheSize=32m",
                "-XX:ErrorFile=" + workDir.resolve("hs_err_%p.log")), "ulimit -v 2000000", "-n", "5000", "--depth", "10", "--json");
        assertEquals(3, run.exitCode(), run.stdout());
        JsonObject result = run.json();
        assertEquals("refused", result.getString("outcome"));
        int started = result.getInt("started");
        assertTrue(started > 0 && started < 5000, "started " + started);
        assertEquals(started, result.getInt("parked"));
        assertTrue(result.getString("message").contains("unable to create native thread"), result.getString("message"));
        try (var files = Files.list(workDir)) {
            assertEquals(List.of(), files.filter(f -> f.getFileName().toString().startsWith("hs_err")).toList(), "crash dump written");
        }
    }

    @Test
    void aStackTooSmallForTheDepthIsReportedNotThrown() throws Exception {
        Run run = runJava(List.of("-Xss256k"), "-n", "4", "--depth", "10000", "--json");
        assertEquals(4, run.exitCode(), run.stdout());
        assertEquals("stack-too-small", run.json().getString("outcome"));
        assertEquals(256, run.json().getInt("stackSizeKb"));
        assertTrue(run.json().getBoolean("stackSizeGiven"));
    }

    @Test
    void badArgumentsExitWithUsage() throws Exception {
        assertEquals(2, runJava(List.of(), "-n", "0").exitCode());
    }

    private Run runJava(List<String> jvmOptions, String... args) throws IOException, InterruptedException {
        List<String> argList = new ArrayList<>(List.of(args));
        String shellPrefix = null;
        if (argList.get(0).startsWith("ulimit")) {
            shellPrefix = argList.remove(0);
        }
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElseThrow());
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), "dev.loomlab.micro.memory.ThreadMemoryExperiment"));
        command.addAll(argList);
        if (shellPrefix != null) {
            // exec "$0" "$@": the JVM replaces the shell, with the limit applied to it alone.
            List<String> shell = new ArrayList<>(List.of("bash", "-c", shellPrefix + " && exec \"$0\" \"$@\""));
            shell.addAll(command);
            command = shell;
        }
        Path out = workDir.resolve("stdout.txt");
        Process process = new ProcessBuilder(command).directory(workDir.toFile())
                .redirectOutput(out.toFile()).redirectError(workDir.resolve("stderr.txt").toFile()).start();
        try {
            if (!process.waitFor(90, TimeUnit.SECONDS)) {
                throw new AssertionError("the experiment did not exit within 90 s");
            }
        } finally {
            process.destroyForcibly();
        }
        return new Run(process.exitValue(), Files.readString(out));
    }
}
