package dev.loomlab.cargotracker.interfaces.web.admin;

import dev.loomlab.cargotracker.application.booking.BookingService;
import dev.loomlab.cargotracker.application.queries.CargoQueries;
import dev.loomlab.cargotracker.domain.cargo.Itinerary;
import dev.loomlab.cargotracker.domain.cargo.TrackingId;
import dev.loomlab.cargotracker.domain.shared.DomainException;
import dev.loomlab.cargotracker.interfaces.web.Messages;
import dev.loomlab.cargotracker.interfaces.web.TrackingIds;
import dev.loomlab.cargotracker.interfaces.web.view.CargoPresenter;
import dev.loomlab.cargotracker.interfaces.web.view.CargoView;
import jakarta.faces.view.ViewScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import java.io.Serializable;
import java.util.List;
import java.util.Optional;

/**
 * Route selection: searches the voyage network once when the page opens, keeps the proposals in
 * the view, and assigns the one the user picks (the exact itinerary shown, not a new search).
 */
@Named
@ViewScoped
public class RouteSelectionPage implements Serializable {

    private static final long serialVersionUID = 1L;

    @Inject
    BookingService booking;
    @Inject
    CargoQueries queries;
    @Inject
    CargoPresenter presenter;

    private String trackingId;
    private TrackingId id;
    private CargoView cargo;
    private List<Itinerary> candidates = List.of();
    private List<List<CargoView.LegView>> candidateLegs = List.of();
    private String problem;

    public void load() {
        StringBuilder why = new StringBuilder();
        Optional<TrackingId> parsed = TrackingIds.parse(trackingId, why);
        if (parsed.isEmpty()) {
            problem = why.toString();
            return;
        }
        id = parsed.get();
        try {
            cargo = presenter.view(queries.require(id));
            candidates = booking.routeCandidates(id);
            candidateLegs = candidates.stream().map(presenter::legs).toList();
            if (candidates.isEmpty()) {
                problem = "No voyages can take this cargo to its destination by its deadline. Change the deadline "
                        + "or the destination, or try again when new sailings are scheduled.";
            }
        } catch (DomainException e) {
            problem = e.getMessage();
        }
    }

    public String assign(int index) {
        if (id == null || index < 0 || index >= candidates.size()) {
            Messages.error("That route is no longer on offer; reload the page to search again.");
            return null;
        }
        try {
            booking.assignRoute(id, candidates.get(index));
        } catch (DomainException e) {
            Messages.error(e.getMessage());
            return null;
        }
        Messages.confirmAfterRedirect("Cargo " + id + " is routed via " + candidates.get(index).legs().size() + " leg(s).");
        return "/admin/cargo.xhtml?faces-redirect=true&trackingId=" + id;
    }

    /** "Arrives Sat 20 Dec 2026, 18:00 · 2 legs" for the proposal at {@code index}. */
    public String summary(int index) {
        Itinerary route = candidates.get(index);
        return "Arrives " + CargoPresenter.time(route.finalArrivalTime()) + " · " + route.legs().size()
                + (route.legs().size() == 1 ? " leg" : " legs");
    }

    public List<List<CargoView.LegView>> getCandidates() {
        return candidateLegs;
    }

    public String getTrackingId() {
        return trackingId;
    }

    public void setTrackingId(String trackingId) {
        this.trackingId = trackingId;
    }

    public CargoView getCargo() {
        return cargo;
    }

    public String getProblem() {
        return problem;
    }
}
