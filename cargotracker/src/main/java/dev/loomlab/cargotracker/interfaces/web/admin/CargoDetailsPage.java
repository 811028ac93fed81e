package dev.loomlab.cargotracker.interfaces.web.admin;

import dev.loomlab.cargotracker.interfaces.web.CargoLoadingPage;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Named;

/** Cargo details for the booking desk: what was asked, the plan, where it stands, and what can be changed. */
@Named
@RequestScoped
public class CargoDetailsPage extends CargoLoadingPage {
}
