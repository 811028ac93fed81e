package dev.loomlab.cargotracker.interfaces.rest;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** REST and SSE endpoints live under {@code /api}; Faces pages are everywhere else. */
@ApplicationPath("api")
public class CargoTrackerApi extends Application {
}
