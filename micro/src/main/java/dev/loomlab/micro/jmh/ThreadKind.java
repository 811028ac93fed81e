package dev.loomlab.micro.jmh;

import java.util.Locale;
import java.util.concurrent.ThreadFactory;

/** The two kinds of thread every micro-benchmark compares. */
public enum ThreadKind {
    VIRTUAL,
    PLATFORM;

    public ThreadFactory factory() {
        return switch (this) {
            case VIRTUAL -> Thread.ofVirtual().name("virtual-", 0).factory();
            case PLATFORM -> Thread.ofPlatform().name("platform-", 0).factory();
        };
    }

    /** Parses "virtual" or "platform" (any case), as written on command lines and in JMH params. */
    public static ThreadKind parse(String text) {
        for (ThreadKind kind : values()) {
            if (kind.name().equalsIgnoreCase(text)) {
                return kind;
            }
        }
        throw new IllegalArgumentException("thread kind must be virtual or platform, was '" + text + "'");
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
