package dev.loomlab.app.contend;

import dev.loomlab.api.Limit;
import dev.loomlab.api.QueryParameters;

/**
 * The validated query of {@code GET /api/contend}: how long the request holds the lock once it has
 * it ({@code holdMs}, under the sleep endpoint's cap), and how long it may spin for it
 * ({@code maxSpinMs}).
 */
public record ContendRequest(int holdMs, int maxSpinMs) {

    /** Longest spin a request may ask for; change with {@code -Dloomlab.contend.maxSpinMs=}. */
    public static final String MAX_SPIN_MS_PROPERTY = "loomlab.contend.maxSpinMs";
    public static final int DEFAULT_MAX_SPIN_CAP_MS = 60_000;
    public static final int DEFAULT_HOLD_MS = 100;
    public static final int DEFAULT_MAX_SPIN_MS = 10_000;
    private static final String WHY_CAPPED = "a spinning request holds its thread, on a virtual thread its carrier, "
            + "so every spin ends by this cap; -D" + MAX_SPIN_MS_PROPERTY + " changes it";

    public static ContendRequest parse(String holdMs, String maxSpinMs) {
        int maxSleep = Limit.SLEEP_MAX_MS.value();
        int hold = QueryParameters.intInRange("holdMs", holdMs, 0, maxSleep, DEFAULT_HOLD_MS);
        int spinCap = QueryParameters.cap(MAX_SPIN_MS_PROPERTY, DEFAULT_MAX_SPIN_CAP_MS);
        int spin = QueryParameters.intInRange("maxSpinMs", maxSpinMs, 1, spinCap,
                Math.min(DEFAULT_MAX_SPIN_MS, Math.max(1, spinCap)), WHY_CAPPED);
        return new ContendRequest(hold, spin);
    }

    long maxSpinNanos() {
        return maxSpinMs * 1_000_000L;
    }
}
