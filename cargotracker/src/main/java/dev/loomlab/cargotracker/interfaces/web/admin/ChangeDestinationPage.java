package dev.loomlab.cargotracker.interfaces.web.admin;

import dev.loomlab.cargotracker.application.booking.BookingService;
import dev.loomlab.cargotracker.domain.cargo.TrackingId;
import dev.loomlab.cargotracker.domain.location.UnLocode;
import dev.loomlab.cargotracker.domain.shared.DomainException;
import dev.loomlab.cargotracker.interfaces.web.CargoLoadingPage;
import dev.loomlab.cargotracker.interfaces.web.Messages;
import jakarta.faces.view.ViewScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import java.io.Serializable;

/** Changes where the cargo should go; the cargo becomes misrouted until it gets a new route. */
@Named
@ViewScoped
public class ChangeDestinationPage extends CargoLoadingPage implements Serializable {

    private static final long serialVersionUID = 1L;

    @Inject
    BookingService booking;

    private String destination;

    public String change() {
        try {
            booking.changeDestination(TrackingId.parse(getTrackingId()),
                    UnLocode.parse(destination));
        } catch (DomainException e) {
            Messages.error(e.getMessage());
            return null;
        }
        Messages.confirmAfterRedirect("The destination is now " + presenter.place(UnLocode.parse(destination))
                + ". Choose a new route if the cargo is misrouted.");
        return "/admin/cargo.xhtml?faces-redirect=true&trackingId=" + getCargo().trackingId();
    }

    public String getDestination() {
        return destination;
    }

    public void setDestination(String destination) {
        this.destination = destination;
    }
}
