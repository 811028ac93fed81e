package dev.loomlab.cargotracker.domain.cargo;

import dev.loomlab.cargotracker.domain.shared.DomainException;
import java.security.SecureRandom;
import java.util.Locale;
import java.util.random.RandomGenerator;
import java.util.regex.Pattern;

/** What the customer quotes to follow a cargo: 4 to 16 capital letters and digits. */
public record TrackingId(String id) {

    private static final Pattern FORMAT = Pattern.compile("[A-Z0-9]{4,16}");
    /** New ids avoid 0/O and 1/I so they survive being read out on the phone. */
    private static final String ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    private static final int NEW_ID_LENGTH = 10;
    private static final RandomGenerator RANDOM = new SecureRandom();

    public TrackingId {
        if (id == null || !FORMAT.matcher(id).matches()) {
            throw new DomainException("trackingId", id == null || id.isBlank()
                    ? "A tracking id is required."
                    : "'" + id + "' is not a tracking id: use 4 to 16 capital letters and digits.");
        }
    }

    public static TrackingId parse(String text) {
        return new TrackingId(text == null ? null : text.strip().toUpperCase(Locale.ROOT));
    }

    /**
     * A fresh random id: 10 characters of a 32-letter alphabet are 50 bits, so a clash among even
     * a million cargos is unlikely, and the primary key refuses the rare one that happens.
     */
    public static TrackingId random() {
        StringBuilder id = new StringBuilder(NEW_ID_LENGTH);
        for (int i = 0; i < NEW_ID_LENGTH; i++) {
            id.append(ALPHABET.charAt(RANDOM.nextInt(ALPHABET.length())));
        }
        return new TrackingId(id.toString());
    }

    @Override
    public String toString() {
        return id;
    }
}
