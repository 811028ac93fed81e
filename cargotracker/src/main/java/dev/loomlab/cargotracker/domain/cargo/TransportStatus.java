package dev.loomlab.cargotracker.domain.cargo;

/** Where the cargo physically is, as far as the last handling tells. */
public enum TransportStatus {
    NOT_RECEIVED("Not received"),
    IN_PORT("In port"),
    ONBOARD_CARRIER("On board a carrier"),
    CLAIMED("Claimed");

    private final String label;

    TransportStatus(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
