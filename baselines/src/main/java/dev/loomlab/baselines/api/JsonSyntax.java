package dev.loomlab.baselines.api;

/**
 * Checks that a request body is exactly one JSON object (RFC 8259), so the dependency-free
 * servers refuse what the WAR's JSON-P and Vert.x's Jackson refuse. It only checks: the servers
 * echo the body's own text, which is therefore valid JSON.
 */
final class JsonSyntax {

    /** Depth beyond which a body is refused rather than recursed into. */
    private static final int MAX_DEPTH = 256;

    private final String text;
    private int at;

    private JsonSyntax(String text) {
        this.text = text;
    }

    /** Null when {@code text} is one JSON object; else why not. */
    static String problemWithObject(String text) {
        JsonSyntax syntax = new JsonSyntax(text);
        try {
            syntax.skipSpace();
            if (syntax.at >= text.length()) {
                return "empty";
            }
            char first = text.charAt(syntax.at);
            syntax.value(0);
            syntax.skipSpace();
            if (syntax.at < text.length()) {
                return "content after the first value at offset " + syntax.at;
            }
            return first == '{' ? null : "must be a JSON object, was " + kind(first);
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    private static String kind(char first) {
        return switch (first) {
            case '[' -> "array";
            case '"' -> "string";
            case 't', 'f' -> "boolean";
            case 'n' -> "null";
            default -> "number";
        };
    }

    private void value(int depth) {
        if (depth > MAX_DEPTH) {
            throw bad("nested deeper than " + MAX_DEPTH);
        }
        skipSpace();
        if (at >= text.length()) {
            throw bad("ends before a value");
        }
        char c = text.charAt(at);
        switch (c) {
            case '{' -> object(depth);
            case '[' -> array(depth);
            case '"' -> string();
            case 't' -> literal("true");
            case 'f' -> literal("false");
            case 'n' -> literal("null");
            default -> number();
        }
    }

    private void object(int depth) {
        at++;
        skipSpace();
        if (peek() == '}') {
            at++;
            return;
        }
        while (true) {
            skipSpace();
            if (peek() != '"') {
                throw bad("expected a member name");
            }
            string();
            skipSpace();
            expect(':');
            value(depth + 1);
            skipSpace();
            char c = next();
            if (c == '}') {
                return;
            }
            if (c != ',') {
                throw bad("expected ',' or '}'");
            }
        }
    }

    private void array(int depth) {
        at++;
        skipSpace();
        if (peek() == ']') {
            at++;
            return;
        }
        while (true) {
            value(depth + 1);
            skipSpace();
            char c = next();
            if (c == ']') {
                return;
            }
            if (c != ',') {
                throw bad("expected ',' or ']'");
            }
        }
    }

    private void string() {
        at++;
        while (true) {
            char c = next();
            if (c == '"') {
                return;
            }
            if (c < 0x20) {
                throw bad("control character in a string");
            }
            if (c == '\\') {
                char e = next();
                if (e == 'u') {
                    for (int i = 0; i < 4; i++) {
                        if (Character.digit(next(), 16) < 0) {
                            throw bad("bad \\u escape");
                        }
                    }
                } else if ("\"\\/bfnrt".indexOf(e) < 0) {
                    throw bad("bad escape \\" + e);
                }
            }
        }
    }

    private void number() {
        int start = at;
        if (peek() == '-') {
            at++;
        }
        if (peek() == '0') {
            at++;
        } else if (isDigit(peek())) {
            digits();
        } else {
            throw bad("unexpected character '" + printable(peek()) + "'");
        }
        if (peek() == '.') {
            at++;
            requireDigit();
            digits();
        }
        if (peek() == 'e' || peek() == 'E') {
            at++;
            if (peek() == '+' || peek() == '-') {
                at++;
            }
            requireDigit();
            digits();
        }
        if (at == start) {
            throw bad("expected a value");
        }
    }

    private void requireDigit() {
        if (!isDigit(peek())) {
            throw bad("expected a digit");
        }
    }

    private void digits() {
        while (isDigit(peek())) {
            at++;
        }
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private void literal(String word) {
        if (!text.startsWith(word, at)) {
            throw bad("unexpected character '" + printable(peek()) + "'");
        }
        at += word.length();
    }

    private void expect(char c) {
        if (next() != c) {
            throw bad("expected '" + c + "'");
        }
    }

    private char peek() {
        return at < text.length() ? text.charAt(at) : '\0';
    }

    private char next() {
        if (at >= text.length()) {
            throw bad("ends too early");
        }
        return text.charAt(at++);
    }

    private void skipSpace() {
        while (at < text.length() && " \t\r\n".indexOf(text.charAt(at)) >= 0) {
            at++;
        }
    }

    private static String printable(char c) {
        return c == '\0' ? "end" : c < 0x20 ? String.format("\\u%04x", (int) c) : String.valueOf(c);
    }

    private IllegalArgumentException bad(String why) {
        return new IllegalArgumentException(why + " (offset " + Math.min(at, text.length()) + ")");
    }
}
