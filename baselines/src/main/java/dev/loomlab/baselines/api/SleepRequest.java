package dev.loomlab.baselines.api;

import java.util.concurrent.ThreadLocalRandom;

/**
 * A validated sleep, with the WAR's rules and caps: a fixed {@code ms}, or a uniform draw from
 * {@code [min, max]}, at a call depth of {@code depth} frames.
 */
public record SleepRequest(int minMs, int maxMs, int depth) {

    /** Largest sleep, in ms; raise with {@code -Dloomlab.sleep.maxMs=} (same property as the WAR). */
    public static final String MAX_MS_PROPERTY = "loomlab.sleep.maxMs";
    /** Deepest recursion; raise with {@code -Dloomlab.sleep.maxDepth=} (mind the thread stack size). */
    public static final String MAX_DEPTH_PROPERTY = "loomlab.sleep.maxDepth";
    public static final int DEFAULT_MAX_MS = 60_000;
    public static final int DEFAULT_MAX_DEPTH = 2_000;
    public static final int DEFAULT_MS = 100;

    public static SleepRequest parse(QueryParameters query) {
        return parse(query.get("ms"), query.get("min"), query.get("max"), query.get("depth"));
    }

    public static SleepRequest parse(String ms, String min, String max, String depth) {
        int maxMs = QueryParameters.cap(MAX_MS_PROPERTY, DEFAULT_MAX_MS);
        int maxDepth = QueryParameters.cap(MAX_DEPTH_PROPERTY, DEFAULT_MAX_DEPTH);
        int frames = QueryParameters.intInRange("depth", depth, 0, maxDepth, 0);
        if (min == null && max == null) {
            int fixed = QueryParameters.intInRange("ms", ms, 0, maxMs, DEFAULT_MS);
            return new SleepRequest(fixed, fixed, frames);
        }
        if (ms != null) {
            throw new BadParameterException("ms", "either ms, or min and max", "give either ms or min and max, not both");
        }
        int low = QueryParameters.intInRange("min", min, 0, maxMs);
        int high = QueryParameters.intInRange("max", max, 0, maxMs);
        QueryParameters.requireOrdered("min", low, "max", high);
        return new SleepRequest(low, high, frames);
    }

    /** The sleep this request will take: fixed, or drawn uniformly. */
    public int drawMs() {
        return minMs == maxMs ? minMs : ThreadLocalRandom.current().nextInt(minMs, maxMs + 1);
    }

    /**
     * Recurses {@code framesLeft} frames before sleeping, so the blocked thread holds a stack as
     * deep as a real application's (a virtual thread must copy it when it unmounts).
     *
     * @return the depth reached, as the WAR reports it
     */
    public static int descendThenSleep(int framesLeft, int sleepMs) throws InterruptedException {
        if (framesLeft == 0) {
            Thread.sleep(sleepMs);
            return 0;
        }
        return descendThenSleep(framesLeft - 1, sleepMs) + 1;
    }
}
