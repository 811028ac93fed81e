package dev.loomlab.cargotracker.interfaces.web.booking;

import dev.loomlab.cargotracker.application.Clocks;
import dev.loomlab.cargotracker.application.booking.BookingService;
import dev.loomlab.cargotracker.domain.cargo.TrackingId;
import dev.loomlab.cargotracker.domain.location.UnLocode;
import dev.loomlab.cargotracker.domain.shared.DomainException;
import dev.loomlab.cargotracker.interfaces.web.Dates;
import dev.loomlab.cargotracker.interfaces.web.Messages;
import dev.loomlab.cargotracker.interfaces.web.view.CargoPresenter;
import jakarta.faces.flow.FlowScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import java.io.Serializable;
import java.time.Clock;
import java.time.LocalDate;

/**
 * What the booking wizard collects, step by step. Each step checks its own input before moving on,
 * so the last step only fails on what it adds (the deadline).
 */
@Named
@FlowScoped(BookingFlowDefinition.FLOW_ID)
public class BookingWizard implements Serializable {

    private static final long serialVersionUID = 1L;

    @Inject
    BookingService booking;
    @Inject
    CargoPresenter presenter;
    @Inject
    Clock clock;

    private String origin;
    private String destination;
    private String deadline;
    private TrackingId booked;

    /** Step 1 -> 2. */
    public String toDestination() {
        return UnLocode.isValid(origin) ? "destination" : refuse("Choose where the cargo starts.");
    }

    /** Step 2 -> 3. */
    public String toDeadline() {
        if (!UnLocode.isValid(destination)) {
            return refuse("Choose where the cargo goes.");
        }
        if (UnLocode.parse(destination).equals(UnLocode.parse(origin))) {
            return refuse("The destination must differ from the origin (" + presenter.place(UnLocode.parse(origin)) + ").");
        }
        return "deadline";
    }

    /** Step 3: books the cargo and leaves the flow for route selection. */
    public String book() {
        try {
            LocalDate arrivalDeadline = Dates.parseDay("arrivalDeadline", deadline);
            booked = booking.bookNewCargo(UnLocode.parse(origin), UnLocode.parse(destination), arrivalDeadline);
        } catch (DomainException e) {
            return refuse(e.getMessage());
        }
        Messages.confirmAfterRedirect("Booked cargo " + booked + ". Now choose its route.");
        return "booked";
    }

    public String getRouteSelectionOutcome() {
        return "/admin/route.xhtml?faces-redirect=true&trackingId=" + booked;
    }

    private static String refuse(String message) {
        Messages.error(message);
        return null;
    }

    public String getOriginName() {
        return UnLocode.isValid(origin) ? presenter.place(UnLocode.parse(origin)) : "";
    }

    public String getDestinationName() {
        return UnLocode.isValid(destination) ? presenter.place(UnLocode.parse(destination)) : "";
    }

    /** The earliest deadline the date picker offers: today. */
    public String getEarliestDeadline() {
        return Clocks.today(clock).toString();
    }

    public String getOrigin() {
        return origin;
    }

    public void setOrigin(String origin) {
        this.origin = origin;
    }

    public String getDestination() {
        return destination;
    }

    public void setDestination(String destination) {
        this.destination = destination;
    }

    public String getDeadline() {
        return deadline;
    }

    public void setDeadline(String deadline) {
        this.deadline = deadline;
    }
}
