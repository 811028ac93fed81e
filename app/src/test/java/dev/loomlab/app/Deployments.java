package dev.loomlab.app;

import java.io.File;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/** The tests deploy the real WAR that `mvn package` built, exactly as users deploy it. */
final class Deployments {

    private Deployments() {
    }

    static WebArchive labWar() {
        File war = new File(System.getProperty("loomlab.war", "target/loomlab.war"));
        if (!war.isFile()) {
            throw new IllegalStateException("no WAR at " + war.getAbsolutePath() + ": run the tests through mvn verify");
        }
        return ShrinkWrap.createFromZipFile(WebArchive.class, war);
    }
}
