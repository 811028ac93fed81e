package dev.loomlab.cargotracker.domain.voyage;

import dev.loomlab.cargotracker.domain.shared.DomainException;
import java.io.Serializable;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A voyage's identity as printed on a bill of lading: letters, digits and dashes, e.g. PAC-251124.
 * Serializable because legs that carry it wait in a page's view state.
 */
public record VoyageNumber(String number) implements Serializable {

    private static final Pattern FORMAT = Pattern.compile("[A-Z0-9][A-Z0-9-]{1,19}");

    public VoyageNumber {
        if (number == null || !FORMAT.matcher(number).matches()) {
            throw new DomainException("voyageNumber", number == null || number.isBlank()
                    ? "A voyage number is required."
                    : "'" + number + "' is not a voyage number: use 2 to 20 letters, digits or dashes.");
        }
    }

    public static VoyageNumber parse(String text) {
        return new VoyageNumber(text == null ? null : text.strip().toUpperCase(Locale.ROOT));
    }

    @Override
    public String toString() {
        return number;
    }
}
