package dev.loomlab.cargotracker.infrastructure.config;

import java.nio.file.Path;

/**
 * Where CargoTracker keeps its files (the H2 database, uploaded CSV files): system property
 * {@code cargotracker.data.dir}, else environment variable {@code CARGOTRACKER_DATA_DIR}, else
 * {@code ./cargotracker-data} in the server's working directory. The datasource in web.xml reads
 * the system property only (it has no default there), so set that one to keep database and uploads
 * side by side; the lab and the tests always do.
 */
public final class DataFolder {

    public static final String PROPERTY = "cargotracker.data.dir";
    public static final String ENVIRONMENT = "CARGOTRACKER_DATA_DIR";
    static final String DEFAULT = "./cargotracker-data";

    private DataFolder() {
    }

    public static Path path() {
        String configured = System.getProperty(PROPERTY);
        if (configured == null || configured.isBlank()) {
            configured = System.getenv(ENVIRONMENT);
        }
        return Path.of(configured == null || configured.isBlank() ? DEFAULT : configured).toAbsolutePath();
    }
}
