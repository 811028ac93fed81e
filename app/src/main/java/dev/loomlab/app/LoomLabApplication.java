package dev.loomlab.app;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** All lab endpoints live under {@code /api}. */
@ApplicationPath("api")
public class LoomLabApplication extends Application {
}
