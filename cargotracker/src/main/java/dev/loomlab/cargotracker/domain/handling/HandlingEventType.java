package dev.loomlab.cargotracker.domain.handling;

/**
 * What was done to a cargo. Loading and unloading happen on a voyage and must name it; the other
 * activities happen on land and must not.
 */
public enum HandlingEventType {
    RECEIVE("Received", false),
    LOAD("Loaded", true),
    UNLOAD("Unloaded", true),
    CUSTOMS("Cleared customs", false),
    CLAIM("Claimed", false);

    private final String pastTense;
    private final boolean onVoyage;

    HandlingEventType(String pastTense, boolean onVoyage) {
        this.pastTense = pastTense;
        this.onVoyage = onVoyage;
    }

    public boolean requiresVoyage() {
        return onVoyage;
    }

    public boolean prohibitsVoyage() {
        return !onVoyage;
    }

    /** For sentences such as "Loaded onto voyage X in Rotterdam". */
    public String pastTense() {
        return pastTense;
    }

    /** Parses what a person or a CSV line wrote; null when it names no type. */
    public static HandlingEventType parseOrNull(String text) {
        if (text == null) {
            return null;
        }
        for (HandlingEventType type : values()) {
            if (type.name().equalsIgnoreCase(text.strip())) {
                return type;
            }
        }
        return null;
    }
}
