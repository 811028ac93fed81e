package dev.loomlab.cargotracker.interfaces.web.admin;

import dev.loomlab.cargotracker.application.booking.BookingService;
import dev.loomlab.cargotracker.domain.cargo.TrackingId;
import dev.loomlab.cargotracker.domain.shared.DomainException;
import dev.loomlab.cargotracker.interfaces.web.CargoLoadingPage;
import dev.loomlab.cargotracker.interfaces.web.Dates;
import dev.loomlab.cargotracker.interfaces.web.Messages;
import jakarta.faces.view.ViewScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import java.io.Serializable;
import java.time.LocalDate;

/** Changes the arrival deadline; a deadline the current route misses makes the cargo misrouted. */
@Named
@ViewScoped
public class ChangeDeadlinePage extends CargoLoadingPage implements Serializable {

    private static final long serialVersionUID = 1L;

    @Inject
    BookingService booking;

    /** As sent by the browser's date input: yyyy-mm-dd. */
    private String deadline;

    public String change() {
        try {
            LocalDate date = Dates.parseDay("arrivalDeadline", deadline);
            booking.changeDeadline(TrackingId.parse(getTrackingId()), date);
            Messages.confirmAfterRedirect("The arrival deadline is now " + date + ".");
        } catch (DomainException e) {
            Messages.error(e.getMessage());
            return null;
        }
        return "/admin/cargo.xhtml?faces-redirect=true&trackingId=" + getCargo().trackingId();
    }

    public String getDeadline() {
        return deadline;
    }

    public void setDeadline(String deadline) {
        this.deadline = deadline;
    }
}
