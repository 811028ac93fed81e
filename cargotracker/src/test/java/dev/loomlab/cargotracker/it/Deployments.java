package dev.loomlab.cargotracker.it;

import java.io.File;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/** The tests deploy the WAR that {@code mvn package} built, exactly as users deploy it. */
final class Deployments {

    private Deployments() {
    }

    static WebArchive cargoTrackerWar() {
        File war = new File(System.getProperty("cargotracker.war", "target/cargotracker.war"));
        if (!war.isFile()) {
            throw new IllegalStateException("no WAR at " + war.getAbsolutePath() + ": run the tests through mvn verify");
        }
        // The test helpers without Selenium: the test class is loaded in the server too, and must link there.
        return ShrinkWrap.createFromZipFile(WebArchive.class, war)
                .addClasses(Await.class, Dates.class, Api.class, Api.Answer.class, ApiScenarios.class, ParallelBookings.class);
    }
}
