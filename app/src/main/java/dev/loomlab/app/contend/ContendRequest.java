package dev.loomlab.app.contend;

import dev.loomlab.api.BadParameterException;
import dev.loomlab.api.Limit;
import dev.loomlab.api.QueryParameters;

/**
 * The validated query of {@code GET /api/contend}: how long the request holds the lock once it has
 * it ({@code holdMs}, under the sleep endpoint's cap), which lock it waits for ({@code lock}: the
 * application's {@link SpinLock}, or its one monitor, {@code synchronized}), and how long it may
 * spin for the spin lock ({@code maxSpinMs}; a monitor's wait has no bound, so it is refused there).
 */
public record ContendRequest(int holdMs, int maxSpinMs, Kind lock) {

    /** Which lock a request waits for: a spinner holds its thread (on a virtual thread its carrier); a
     *  monitor's waiter blocks (JFR records it as a contended monitor enter). */
    public enum Kind { SPIN, MONITOR }

    /** Longest spin a request may ask for; change with {@code -Dloomlab.contend.maxSpinMs=}. */
    public static final String MAX_SPIN_MS_PROPERTY = "loomlab.contend.maxSpinMs";
    public static final int DEFAULT_MAX_SPIN_CAP_MS = 60_000;
    public static final int DEFAULT_HOLD_MS = 100;
    public static final int DEFAULT_MAX_SPIN_MS = 10_000;
    private static final String LOCKS = "spin|monitor";
    private static final String WHY_CAPPED = "a spinning request holds its thread, on a virtual thread its carrier, "
            + "so every spin ends by this cap; -D" + MAX_SPIN_MS_PROPERTY + " changes it";

    public static ContendRequest parse(String holdMs, String maxSpinMs) {
        return parse(holdMs, maxSpinMs, null);
    }

    public static ContendRequest parse(String holdMs, String maxSpinMs, String lock) {
        int maxSleep = Limit.SLEEP_MAX_MS.value();
        int hold = QueryParameters.intInRange("holdMs", holdMs, 0, maxSleep, DEFAULT_HOLD_MS);
        Kind kind = kind(lock);
        if (kind == Kind.MONITOR && maxSpinMs != null) {
            throw new BadParameterException("maxSpinMs", "only with lock=spin",
                    "maxSpinMs applies to lock=spin only: a request waiting for a monitor cannot give up");
        }
        int spinCap = QueryParameters.cap(MAX_SPIN_MS_PROPERTY, DEFAULT_MAX_SPIN_CAP_MS);
        int spin = QueryParameters.intInRange("maxSpinMs", maxSpinMs, 1, spinCap,
                Math.min(DEFAULT_MAX_SPIN_MS, Math.max(1, spinCap)), WHY_CAPPED);
        return new ContendRequest(hold, spin, kind);
    }

    private static Kind kind(String lock) {
        if (lock == null) {
            return Kind.SPIN;
        }
        return switch (lock) {
            case "spin" -> Kind.SPIN;
            case "monitor" -> Kind.MONITOR;
            default -> throw new BadParameterException("lock", LOCKS, "lock must be one of " + LOCKS + ", was " + lock);
        };
    }

    long maxSpinNanos() {
        return maxSpinMs * 1_000_000L;
    }
}
