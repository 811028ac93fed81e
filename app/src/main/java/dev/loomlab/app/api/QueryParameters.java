package dev.loomlab.app.api;

/**
 * Reads numeric query parameters ourselves rather than through {@code @QueryParam int}, so a bad
 * value gets a 400 that names the parameter and its range instead of a bare 404.
 */
public final class QueryParameters {

    private QueryParameters() {
    }

    /** An optional integer in {@code [min, max]}; {@code fallback} when absent. */
    public static int intInRange(String name, String raw, int min, int max, int fallback) {
        return raw == null ? fallback : intInRange(name, raw, min, max);
    }

    /** An optional integer in {@code [min, max]}; a value above {@code max} is refused with {@code whyTheCap}. */
    public static int intInRange(String name, String raw, int min, int max, int fallback, String whyTheCap) {
        int value = intInRange(name, raw, min, Integer.MAX_VALUE, fallback);
        if (value > max) {
            throw new BadParameterException(name, min + ".." + max, name + " must be in " + min + ".." + max + ", was " + value
                    + " (" + whyTheCap + ")");
        }
        return value;
    }

    /** A required integer in {@code [min, max]}. */
    public static int intInRange(String name, String raw, int min, int max) {
        String allowed = min + ".." + max;
        if (raw == null || raw.isBlank()) {
            throw new BadParameterException(name, allowed, name + " is required: an integer in " + allowed);
        }
        long value;
        try {
            value = Long.parseLong(raw.trim());
        } catch (NumberFormatException e) {
            throw new BadParameterException(name, allowed, name + " must be an integer in " + allowed + ", was \"" + abbreviate(raw) + "\"");
        }
        if (value < min || value > max) {
            throw new BadParameterException(name, allowed, name + " must be in " + allowed + ", was " + value);
        }
        return (int) value;
    }

    /** Refuses a range whose low end lies above its high end, naming the low end's parameter. */
    public static void requireOrdered(String lowName, int low, String highName, int high) {
        if (low > high) {
            throw new BadParameterException(lowName, "0.." + high + " (at most " + highName + ")",
                    lowName + " (" + low + ") must not exceed " + highName + " (" + high + ")");
        }
    }

    /** A system-property cap, so operators can widen a limit without a rebuild. */
    public static int cap(String property, int fallback) {
        return Math.max(0, Integer.getInteger(property, fallback));
    }

    private static String abbreviate(String raw) {
        return raw.length() <= 40 ? raw : raw.substring(0, 40) + "…";
    }
}
