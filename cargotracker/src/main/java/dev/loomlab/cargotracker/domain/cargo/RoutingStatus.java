package dev.loomlab.cargotracker.domain.cargo;

/** How the cargo's itinerary relates to what the customer asked for. */
public enum RoutingStatus {
    /** No itinerary assigned yet. */
    NOT_ROUTED("Not routed"),
    /** The itinerary satisfies the route specification. */
    ROUTED("Routed"),
    /** The specification changed (or the plan broke) and the itinerary no longer satisfies it. */
    MISROUTED("Misrouted");

    private final String label;

    RoutingStatus(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
