package dev.loomlab.api;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * The lab's rules for query parameters, read by hand rather than through a framework's
 * {@code int} binding, so a bad value gets a 400 that names the parameter and its range (JAX-RS
 * would answer a bare 404). Two parts: the integer rules every server applies to the raw strings,
 * and, for servers without a framework, the query string itself, read the way JAX-RS reads
 * {@code @QueryParam String}: percent-decoded, first value wins, {@code ?ms=} gives an empty string
 * (not absent).
 */
public final class QueryParameters {

    private final Map<String, String> firstValues;

    private QueryParameters(Map<String, String> firstValues) {
        this.firstValues = firstValues;
    }

    /** Parses a raw (still percent-encoded) query string; null or empty means no parameters. */
    public static QueryParameters parse(String rawQuery) {
        Map<String, String> values = new HashMap<>();
        if (rawQuery != null && !rawQuery.isEmpty()) {
            for (String pair : rawQuery.split("&")) {
                if (pair.isEmpty()) {
                    continue;
                }
                int equals = pair.indexOf('=');
                String name = decode(equals < 0 ? pair : pair.substring(0, equals));
                String value = equals < 0 ? "" : decode(pair.substring(equals + 1));
                values.putIfAbsent(name, value);
            }
        }
        return new QueryParameters(values);
    }

    /** The first value of {@code name}, or null when the query does not name it. */
    public String get(String name) {
        return firstValues.get(name);
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
            throw new BadParameterException(name, allowed,
                    name + " must be an integer in " + allowed + ", was \"" + abbreviate(raw) + "\"");
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

    /** A system-property cap, so operators can widen a limit without a rebuild (never negative). */
    public static int cap(String property, int fallback) {
        return Math.max(0, Integer.getInteger(property, fallback));
    }

    private static String decode(String raw) {
        try {
            return URLDecoder.decode(raw, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            // A broken escape ("%zz") is kept as typed, so the 400 shows what the client sent.
            return raw;
        }
    }

    private static String abbreviate(String raw) {
        return raw.length() <= 40 ? raw : raw.substring(0, 40) + "…";
    }
}
