package dev.loomlab.api;

import java.util.concurrent.ThreadLocalRandom;

/**
 * A validated sleep of {@code GET /api/sleep}: a fixed {@code ms}, or a uniform draw from
 * {@code [min, max]}, at a call depth of {@code depth} frames; capped by
 * {@link Limit#SLEEP_MAX_MS} and {@link Limit#SLEEP_MAX_DEPTH}.
 */
public record SleepRequest(int minMs, int maxMs, int depth) {

    public static final int DEFAULT_MS = 100;

    public static SleepRequest parse(QueryParameters query) {
        return parse(query.get("ms"), query.get("min"), query.get("max"), query.get("depth"));
    }

    /** The raw values of {@code ms}, {@code min}, {@code max} and {@code depth}; null when absent. */
    public static SleepRequest parse(String ms, String min, String max, String depth) {
        int maxMs = Limit.SLEEP_MAX_MS.value();
        int frames = QueryParameters.intInRange("depth", depth, 0, Limit.SLEEP_MAX_DEPTH.value(), 0);
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
     * @return the depth reached, the answer's {@code "depth"}
     */
    public static int descendThenSleep(int framesLeft, int sleepMs) throws InterruptedException {
        if (framesLeft == 0) {
            Thread.sleep(sleepMs);
            return 0;
        }
        return descendThenSleep(framesLeft - 1, sleepMs) + 1;
    }
}
