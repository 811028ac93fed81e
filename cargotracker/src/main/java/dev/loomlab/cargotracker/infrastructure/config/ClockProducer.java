package dev.loomlab.cargotracker.infrastructure.config;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import java.time.Clock;

/** The one clock the services read, so that tests and the sample data agree on "now". */
@ApplicationScoped
public class ClockProducer {

    @Produces
    @ApplicationScoped
    Clock utc() {
        return Clock.systemUTC();
    }
}
