package dev.loomlab.cargotracker.interfaces.web.tracking;

import dev.loomlab.cargotracker.interfaces.web.CargoLoadingPage;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Named;

/** The tracking page, public ({@code /track.xhtml}) and admin ({@code /admin/track.xhtml}). */
@Named
@RequestScoped
public class TrackingPage extends CargoLoadingPage {

    /** Without a tracking id the page is just the search box, not an error. */
    @Override
    public void load() {
        if (getTrackingId() != null && !getTrackingId().isBlank()) {
            super.load();
        }
    }
}
