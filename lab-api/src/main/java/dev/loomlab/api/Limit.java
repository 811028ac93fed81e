package dev.loomlab.api;

/**
 * The caps on what one request may ask for, each defined once: the system property that changes
 * it (operators widen a limit without a rebuild), its default, and the name {@code /api/info}
 * reports it under ({@code "limits"}).
 */
public enum Limit {

    /** Longest sleep, in ms (the sleep endpoint and each fan-out task). */
    SLEEP_MAX_MS("sleepMaxMs", "loomlab.sleep.maxMs", 60_000),
    /** Deepest recursion before a sleep (mind the thread stack size when raising it). */
    SLEEP_MAX_DEPTH("sleepMaxDepth", "loomlab.sleep.maxDepth", 2_000),
    /** Most tasks per fan-out request. */
    FANOUT_MAX_TASKS("fanoutMaxTasks", "loomlab.fanout.maxTasks", 100),
    /** Largest fan-out body, in bytes. */
    FANOUT_MAX_BODY_BYTES("fanoutMaxBodyBytes", "loomlab.fanout.maxBodyBytes", 8192);

    private final String infoName;
    private final String property;
    private final int fallback;

    Limit(String infoName, String property, int fallback) {
        this.infoName = infoName;
        this.property = property;
        this.fallback = fallback;
    }

    /** The cap now: {@code -D<property>} when set, else the default (never negative). */
    public int value() {
        return QueryParameters.cap(property, fallback);
    }

    public String property() {
        return property;
    }

    /** The cap when no property is set. */
    public int fallback() {
        return fallback;
    }

    /** The field of {@code /api/info}'s {@code "limits"} object. */
    public String infoName() {
        return infoName;
    }
}
