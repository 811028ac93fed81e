package dev.loomlab.micro.echo;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code --name value} arguments for the echo programs, with typed, range-checked getters.
 * Problems are {@link IllegalArgumentException}s with a message meant for the user.
 */
final class CommandLine {

    private final Map<String, String> values = new HashMap<>();

    CommandLine(String[] args, Set<String> known) {
        for (int i = 0; i < args.length; i++) {
            String name = args[i];
            if (!name.startsWith("--") || !known.contains(name.substring(2))) {
                throw new IllegalArgumentException("unknown option '" + name + "'; known: --" + String.join(", --", known.stream().sorted().toList()));
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(name + " needs a value");
            }
            values.put(name.substring(2), args[++i]);
        }
    }

    String text(String name, String fallback) {
        return values.getOrDefault(name, fallback);
    }

    String choice(String name, List<String> allowed, String fallback) {
        String value = text(name, fallback);
        if (value == null || !allowed.contains(value)) {
            throw new IllegalArgumentException("--" + name + " must be one of " + allowed + ", was '" + value + "'");
        }
        return value;
    }

    long number(String name, long min, long max, long fallback) {
        String text = values.get(name);
        if (text == null) {
            return fallback;
        }
        long value;
        try {
            value = Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + name + " must be a whole number, was '" + text + "'");
        }
        if (value < min || value > max) {
            throw new IllegalArgumentException("--" + name + " must be in " + min + ".." + max + ", was " + value);
        }
        return value;
    }
}
