package dev.loomlab.app.sleep;

import dev.loomlab.app.api.BadParameterException;
import dev.loomlab.app.api.QueryParameters;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A validated sleep: a fixed {@code ms}, or a uniform draw from {@code [min, max]}, at a call
 * depth of {@code depth} frames.
 */
public record SleepRequest(int minMs, int maxMs, int depth) {

    /** Largest sleep, in ms; raise with {@code -Dloomlab.sleep.maxMs=}. */
    public static final String MAX_MS_PROPERTY = "loomlab.sleep.maxMs";
    /** Deepest recursion; raise with {@code -Dloomlab.sleep.maxDepth=} (mind the thread stack size). */
    public static final String MAX_DEPTH_PROPERTY = "loomlab.sleep.maxDepth";
    public static final int DEFAULT_MS = 100;

    public static SleepRequest parse(String ms, String min, String max, String depth) {
        int maxMs = QueryParameters.cap(MAX_MS_PROPERTY, 60_000);
        int maxDepth = QueryParameters.cap(MAX_DEPTH_PROPERTY, 2_000);
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
}
