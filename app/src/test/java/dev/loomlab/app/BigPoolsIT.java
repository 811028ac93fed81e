package dev.loomlab.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.URL;
import java.util.List;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Opt-in ({@code mvn verify -Pbig-pools}): 5000 concurrent five-second sleeps tell a 4000 pool
 * (two waves) from a 10000 pool or an unbounded virtual pool (one wave).
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
@EnabledIfSystemProperty(named = "loomlab.bigPools", matches = "true")
class BigPoolsIT {

    private final ModeUnderTest mode = ModeUnderTest.current();

    @ArquillianResource
    private URL base;

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.labWar();
    }

    @Test
    void fiveThousandSleepsTakeOneWaveOnlyWhereThePoolHoldsThem() throws Exception {
        int requests = 5000;
        // Two waves at most: a small pool (platform-8, the test bound of 10) would take minutes.
        assumeTrue(mode.admitsAtOnce(requests / 2), mode.name + " holds fewer than " + requests / 2);
        List<LabClient.Outcome> outcomes;
        int peakSleeping;
        try (LabClient client = new LabClient(base)) {
            outcomes = client.burstOfSleeps(requests, 5000);
            peakSleeping = client.info().getJsonObject("sleeping").getInt("peak");
        }
        assertEquals(requests, LabClient.okCount(outcomes));
        if (mode.admitsAtOnce(requests)) {
            assertEquals(requests, peakSleeping, mode.name + ": all asleep at once");
        } else {
            assertEquals(mode.maxConcurrent, peakSleeping, mode.name + ": the pool's bound asleep at once");
            // ... and the rest waited for the first wave: at least two sleeps long.
            assertTrue(LabClient.slowerThan(outcomes, 9950) >= requests - mode.maxConcurrent);
        }
    }
}
