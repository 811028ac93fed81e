package dev.loomlab.micro.memory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/** Reads {@link ProcessMemory} from Linux's {@code /proc/self/status}. */
public final class ProcStatus {

    public static final Path SELF = Path.of("/proc/self/status");

    private ProcStatus() {
    }

    /** This process's memory now. */
    public static ProcessMemory readSelf() {
        try {
            return parse(Files.readString(SELF));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + SELF + " (the experiment needs Linux): " + e.getMessage(), e);
        }
    }

    /**
     * Parses the text of a status file: lines {@code Name:<whitespace>value[ kB]}.
     *
     * @throws IllegalArgumentException when a needed line is missing or not a number
     */
    public static ProcessMemory parse(String statusText) {
        Map<String, String> fields = new HashMap<>();
        for (String line : statusText.split("\n")) {
            int colon = line.indexOf(':');
            if (colon > 0) {
                fields.put(line.substring(0, colon), line.substring(colon + 1).trim());
            }
        }
        return new ProcessMemory(kib(fields, "VmPeak"), kib(fields, "VmSize"), kib(fields, "VmHWM"), kib(fields, "VmRSS"),
                (int) number(fields, "Threads", fields.get("Threads")));
    }

    private static long kib(Map<String, String> fields, String name) {
        String value = fields.get(name);
        if (value != null && !value.endsWith(" kB")) {
            throw new IllegalArgumentException(name + " is not in kB: \"" + value + "\"");
        }
        return number(fields, name, value == null ? null : value.substring(0, value.length() - 3).trim());
    }

    private static long number(Map<String, String> fields, String name, String digits) {
        if (!fields.containsKey(name)) {
            throw new IllegalArgumentException("no " + name + " line in the status text");
        }
        try {
            return Long.parseLong(digits);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " is not a number: \"" + fields.get(name) + "\"");
        }
    }
}
