package dev.loomlab.cargotracker.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.openqa.selenium.By;

/**
 * The user's story in a real browser: book a cargo through the Faces Flow wizard, route it, report
 * its handling with the phone-sized event logger, and watch the tracking page follow. Wrong input
 * on the way must give a clear message. Screenshots go to {@code screenshotDir}.
 */
final class BrowserJourney {

    private static final Pattern TRACKING_ID = Pattern.compile("trackingId=([A-Z0-9]+)");

    private BrowserJourney() {
    }

    /** Static, so the in-container copy of the test class never needs Selenium. */
    static void run(URL base, Path screenshotDir, int driverPort, int devToolsPort) throws Exception {
        try (Browser browser = new Browser(base.toString(), screenshotDir, driverPort, devToolsPort)) {
            browser.open("");
            browser.screenshot("01-landing");
            logIn(browser);
            String trackingId = bookThroughTheWizard(browser);
            routeIt(browser);
            browser.open("track.xhtml?trackingId=" + trackingId);
            assertEquals("Not received yet", browser.text("status-headline"));
            assertEquals("Receive in Hong Kong", browser.text("next-activity"));

            logExpectedEvent(browser, trackingId, false);
            browser.resize(Browser.DESKTOP);
            awaitHeadline(browser, trackingId, "In port in Hong Kong");
            browser.screenshot("05-tracking-received");

            logExpectedEvent(browser, trackingId, true);
            browser.resize(Browser.DESKTOP);
            awaitHeadline(browser, trackingId, "On board voyage");
            assertTrue(browser.text("next-activity").startsWith("Unload from voyage"), browser::describe);
            browser.screenshot("06-tracking-on-board");

            changeDeadlineThenDestination(browser, trackingId);
        }
    }

    /** The operator pages send the browser to the login page, and back after it. */
    private static void logIn(Browser browser) {
        browser.clickToNextPage("to-dashboard");
        browser.waitForUrl("login.xhtml");
        browser.setValue("login:user", Api.USER);
        browser.setValue("login:password", Api.adminPassword());
        browser.clickToNextPage("login:submit");
        browser.waitForUrl("admin/dashboard.xhtml");
        browser.open("");
    }

    /** A later deadline keeps the route; a new destination makes the cargo misrouted. */
    private static void changeDeadlineThenDestination(Browser browser, String trackingId) {
        browser.open("admin/cargo.xhtml?trackingId=" + trackingId);
        browser.clickToNextPage("change-deadline-link");
        browser.waitForUrl("admin/change-deadline.xhtml");
        browser.setValue("deadline:new-deadline", Dates.today().minusDays(2).toString());
        browser.clickToNextPage("deadline:save");
        assertTrue(browser.showsMessage("is in the past"), browser::describe);
        browser.setValue("deadline:new-deadline", Dates.today().plusDays(70).toString());
        browser.clickToNextPage("deadline:save");
        browser.waitForUrl("admin/cargo.xhtml");
        assertTrue(browser.showsMessage("arrival deadline is now"), browser::describe);
        assertEquals("Routed", browser.text("details-routing-status"));

        browser.clickToNextPage("change-destination-link");
        browser.waitForUrl("admin/change-destination.xhtml");
        browser.pick("destination:new-destination", "USCHI");
        browser.clickToNextPage("destination:save");
        browser.waitForUrl("admin/cargo.xhtml");
        assertTrue(browser.showsMessage("destination is now Chicago"), browser::describe);
        assertEquals("Misrouted", browser.text("details-routing-status"));
        browser.screenshot("07-details-misrouted");

        browser.open("admin/track.xhtml?trackingId=" + trackingId);
        assertEquals("Misrouted", browser.text("routing-status"));
        assertTrue(browser.text("status-headline").startsWith("On board voyage"), browser::describe);
    }

    private static String bookThroughTheWizard(Browser browser) {
        browser.clickToNextPage("to-booking");
        browser.waitForUrl("/booking/");
        browser.pick("booking:origin", "HKHKG");
        browser.clickToNextPage("booking:next");

        browser.waitForText("chosen-origin", "Hong Kong");
        browser.pick("booking:destination", "HKHKG");
        browser.clickToNextPage("booking:next");
        assertTrue(browser.showsMessage("must differ from the origin"), browser::describe);
        browser.pick("booking:destination", "USNYC");
        browser.clickToNextPage("booking:next");

        browser.waitForText("chosen-destination", "New York");
        // The date picker itself refuses past days (min=today); without it, the server still must.
        browser.removeAttribute("booking:deadline", "min");
        browser.setValue("booking:deadline", Dates.today().minusDays(1).toString());
        browser.clickToNextPage("booking:book");
        assertTrue(browser.showsMessage("is in the past"), browser::describe);
        browser.setValue("booking:deadline", Dates.today().plusDays(60).toString());
        browser.screenshot("02-booking-deadline");
        browser.clickToNextPage("booking:book");

        browser.waitForUrl("admin/route.xhtml");
        Matcher id = TRACKING_ID.matcher(browser.url());
        assertTrue(id.find(), browser.url());
        assertTrue(browser.showsMessage("Booked cargo " + id.group(1)), browser::describe);
        return id.group(1);
    }

    private static void routeIt(Browser browser) {
        browser.screenshot("03-route-selection");
        browser.clickToNextPage(By.cssSelector("#routes input[type=submit]"));
        browser.waitForUrl("admin/cargo.xhtml");
        assertEquals("Routed", browser.text("details-routing-status"));
        assertTrue(browser.showsMessage("is routed via"), browser::describe);
    }

    /**
     * Reports the cargo's next expected activity with the event logger, as suggested. The first
     * time, an unknown tracking id is tried first; with {@code tryWithoutVoyage}, the voyage is
     * left out once to see the load-needs-a-voyage message.
     */
    private static void logExpectedEvent(Browser browser, String trackingId, boolean tryWithoutVoyage) {
        browser.resize(Browser.PHONE);
        browser.open("logger/index.xhtml");
        if (!tryWithoutVoyage) {
            browser.type("logger:tracking-id", "NOPE1234");
            browser.clickToNextPage("logger:next");
            assertTrue(browser.showsMessage("No cargo with tracking id NOPE1234"), browser::describe);
        }
        browser.type("logger:tracking-id", trackingId);
        browser.clickToNextPage("logger:next");
        browser.waitForText("logger:suggestion", "Expected next");
        if (!tryWithoutVoyage) {
            browser.screenshot("04-event-logger-suggestion");
        }
        browser.clickToNextPage("logger:next");              // the suggested activity is preselected
        browser.waitForText("logger:step", "Step 3 of 4");
        if (tryWithoutVoyage) {
            String voyage = browser.picked("logger:voyage");
            assertTrue(!voyage.isEmpty(), "the expected voyage is preselected");
            browser.pick("logger:voyage", "");
            browser.clickToNextPage("logger:next");
            assertTrue(browser.showsMessage("needs a voyage number"), browser::describe);
            browser.pick("logger:voyage", voyage);
        }
        browser.clickToNextPage("logger:next");              // the suggested place (and voyage)
        browser.waitForText("summary", trackingId);
        browser.clickToNextPage("logger:next");              // completed now: register
        browser.waitForText("registered", "Registered");
        browser.screenshot(tryWithoutVoyage ? "04c-event-logger-load-registered" : "04b-event-logger-received");
    }

    /** The cargo is inspected asynchronously after each event: reload until the page shows it. */
    private static void awaitHeadline(Browser browser, String trackingId, String headline) {
        Await.until("tracking page of " + trackingId + " to say '" + headline + "'", Duration.ofSeconds(30), () -> {
            browser.open("track.xhtml?trackingId=" + trackingId);
            return browser.text("status-headline").startsWith(headline);
        });
    }
}
