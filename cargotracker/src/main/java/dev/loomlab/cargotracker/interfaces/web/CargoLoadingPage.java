package dev.loomlab.cargotracker.interfaces.web;

import dev.loomlab.cargotracker.application.queries.CargoQueries;
import dev.loomlab.cargotracker.domain.cargo.TrackingId;
import dev.loomlab.cargotracker.interfaces.web.view.CargoPresenter;
import dev.loomlab.cargotracker.interfaces.web.view.CargoView;
import jakarta.inject.Inject;
import java.util.Optional;

/**
 * A page about one cargo named by {@code ?trackingId=} (an f:viewParam): it loads the cargo when
 * the page first asks for it, or explains why it cannot. Loading on first use rather than in an
 * f:viewAction keeps read-only pages out of Faces navigation, which needs a client window and so a
 * session (see FlowOnlyClientWindowFactory).
 */
public abstract class CargoLoadingPage {

    @Inject
    protected CargoQueries queries;
    @Inject
    protected CargoPresenter presenter;

    private String trackingId;
    private CargoView cargo;
    private String problem;
    private boolean loaded;

    /** Loads once per page instance; later calls do nothing. */
    public void load() {
        if (loaded) {
            return;
        }
        loaded = true;
        StringBuilder why = new StringBuilder();
        Optional<TrackingId> id = TrackingIds.parse(trackingId, why);
        if (id.isEmpty()) {
            problem = why.toString();
            return;
        }
        queries.track(id.get()).ifPresentOrElse(
                found -> cargo = presenter.view(found.cargo(), found.history()),
                () -> problem = "No cargo with tracking id " + id.get() + " is known. Check the id and try again.");
    }

    public String getTrackingId() {
        return trackingId;
    }

    public void setTrackingId(String trackingId) {
        this.trackingId = trackingId;
    }

    public CargoView getCargo() {
        load();
        return cargo;
    }

    public String getProblem() {
        load();
        return problem;
    }
}
