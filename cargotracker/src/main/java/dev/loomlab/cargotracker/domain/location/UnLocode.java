package dev.loomlab.cargotracker.domain.location;

import dev.loomlab.cargotracker.domain.shared.DomainException;
import java.io.Serializable;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A United Nations location code: two letters for the country (ISO 3166) and three letters or
 * digits 2-9 for the place, e.g. NLRTM for Rotterdam. Serializable because legs that carry it wait
 * in a page's view state.
 */
public record UnLocode(String code) implements Serializable {

    private static final Pattern FORMAT = Pattern.compile("[A-Z]{2}[A-Z2-9]{3}");

    public UnLocode {
        if (code == null || !FORMAT.matcher(code).matches()) {
            throw new DomainException("unLocode", describeProblem(code));
        }
    }

    /** Accepts what people type: surrounding blanks and lower case are forgiven. */
    public static UnLocode parse(String text) {
        return new UnLocode(text == null ? null : text.strip().toUpperCase(Locale.ROOT));
    }

    public static boolean isValid(String text) {
        return text != null && FORMAT.matcher(text.strip().toUpperCase(Locale.ROOT)).matches();
    }

    private static String describeProblem(String code) {
        if (code == null || code.isBlank()) {
            return "A UN/LOCODE is required (5 characters, e.g. NLRTM).";
        }
        return "'" + code + "' is not a UN/LOCODE: expected 2 letters for the country and 3 letters or "
                + "digits 2-9 for the place, e.g. NLRTM.";
    }

    @Override
    public String toString() {
        return code;
    }
}
