package dev.loomlab.cargotracker.interfaces.web.admin;

import dev.loomlab.cargotracker.application.queries.CargoQueries;
import dev.loomlab.cargotracker.application.queries.CargoSummary;
import dev.loomlab.cargotracker.interfaces.web.view.CargoPresenter;
import dev.loomlab.cargotracker.interfaces.web.view.CargoView;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import java.util.List;

/** The admin dashboard: cargo that needs routing, cargo under way, cargo claimed. GET only, no form. */
@Named
@RequestScoped
public class DashboardPage {

    @Inject
    CargoQueries queries;
    @Inject
    CargoPresenter presenter;

    private CargoQueries.Dashboard dashboard;

    private CargoQueries.Dashboard dashboard() {
        if (dashboard == null) {
            dashboard = queries.dashboard();
        }
        return dashboard;
    }

    public List<CargoView> getNeedRouting() {
        return views(dashboard().needRouting());
    }

    public List<CargoView> getRouted() {
        return views(dashboard().routed());
    }

    public List<CargoView> getClaimed() {
        return views(dashboard().claimed());
    }

    private List<CargoView> views(List<CargoSummary> cargos) {
        return cargos.stream().map(presenter::row).toList();
    }
}
