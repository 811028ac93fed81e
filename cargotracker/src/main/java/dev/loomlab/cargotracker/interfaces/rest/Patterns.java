package dev.loomlab.cargotracker.interfaces.rest;

/** The formats Bean Validation checks at the door, with the messages a client sees. */
final class Patterns {

    static final String UN_LOCODE = "\\s*[A-Za-z]{2}[A-Za-z2-9]{3}\\s*";
    static final String UN_LOCODE_MESSAGE = "must be a UN/LOCODE: 2 letters for the country and 3 letters or digits 2-9, e.g. NLRTM";
    static final String TRACKING_ID = "\\s*[A-Za-z0-9]{4,16}\\s*";
    static final String VOYAGE = "\\s*([A-Za-z0-9][A-Za-z0-9-]{1,19})?\\s*";
    static final String EVENT_TYPE = "(?i)\\s*(RECEIVE|LOAD|UNLOAD|CUSTOMS|CLAIM)\\s*";
    static final String TIME = "\\s*\\d{4}-\\d{2}-\\d{2}[T ]\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?\\s*";

    private Patterns() {
    }
}
