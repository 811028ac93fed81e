package dev.loomlab.baselines.http;

import java.util.Properties;

/**
 * Where and how a baseline server listens, from system properties as in the classic lab:
 * {@code -Dhost=127.0.0.1 -Dport=8080 -Dthreads=10000 -Dbacklog=4096}.
 */
public record ServerSettings(String host, int port, int threads, int backlog) {

    public static final String DEFAULT_HOST = "127.0.0.1";
    public static final int DEFAULT_PORT = 8080;
    public static final int DEFAULT_THREADS = 10_000;
    /** Linux caps the accept queue at net.core.somaxconn (4096 on current kernels). */
    public static final int DEFAULT_BACKLOG = 4096;
    /** Beyond this a platform pool would run into the kernel's pid_max (32768 by default) and starve the machine. */
    public static final int MAX_THREADS = 30_000;

    public ServerSettings {
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("host must not be empty");
        }
        require("port", port, 0, 65_535);
        require("threads", threads, 1, MAX_THREADS);
        require("backlog", backlog, 1, 65_535);
    }

    public static ServerSettings fromSystemProperties() {
        return from(System.getProperties());
    }

    public static ServerSettings from(Properties properties) {
        return new ServerSettings(
                properties.getProperty("host", DEFAULT_HOST),
                intProperty(properties, "port", DEFAULT_PORT),
                intProperty(properties, "threads", DEFAULT_THREADS),
                intProperty(properties, "backlog", DEFAULT_BACKLOG));
    }

    private static int intProperty(Properties properties, String name, int fallback) {
        String raw = properties.getProperty(name);
        if (raw == null) {
            return fallback;
        }
        try {
            return Integer.parseInt(raw.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("-D" + name + " must be an integer, was \"" + raw + "\"");
        }
    }

    private static void require(String name, int value, int min, int max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException("-D" + name + " must be in " + min + ".." + max + ", was " + value);
        }
    }
}
