package dev.loomlab.cargotracker.interfaces.web.booking;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.faces.flow.Flow;
import jakarta.faces.flow.builder.FlowBuilder;
import jakarta.faces.flow.builder.FlowBuilderParameter;
import jakarta.faces.flow.builder.FlowDefinition;
import java.io.Serializable;

/**
 * The booking wizard as a Faces Flow: origin, then destination, then deadline. Leaving through
 * "booked" goes on to route selection for the new cargo; "cancel" back to the dashboard. What was
 * entered lives in the flow scope and disappears when the flow is left.
 */
@ApplicationScoped
public class BookingFlowDefinition implements Serializable {

    private static final long serialVersionUID = 1L;

    public static final String FLOW_ID = "booking";

    @Produces
    @FlowDefinition
    public Flow defineFlow(@FlowBuilderParameter FlowBuilder flow) {
        flow.id("", FLOW_ID);
        flow.viewNode(FLOW_ID, "/booking/booking.xhtml").markAsStartNode();
        flow.viewNode("destination", "/booking/destination.xhtml");
        flow.viewNode("deadline", "/booking/deadline.xhtml");
        flow.returnNode("booked").fromOutcome("#{bookingWizard.routeSelectionOutcome}");
        flow.returnNode("cancel").fromOutcome("/admin/dashboard.xhtml?faces-redirect=true");
        return flow.getFlow();
    }
}
