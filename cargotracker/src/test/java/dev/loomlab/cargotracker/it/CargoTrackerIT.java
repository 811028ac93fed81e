package dev.loomlab.cargotracker.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomlab.cargotracker.application.booking.BookingService;
import dev.loomlab.cargotracker.application.handling.HandlingEventService;
import dev.loomlab.cargotracker.application.handling.HandlingReport;
import dev.loomlab.cargotracker.application.queries.CargoQueries;
import dev.loomlab.cargotracker.domain.cargo.Cargo;
import dev.loomlab.cargotracker.domain.cargo.CargoRepository;
import dev.loomlab.cargotracker.domain.cargo.Itinerary;
import dev.loomlab.cargotracker.domain.cargo.Leg;
import dev.loomlab.cargotracker.domain.cargo.RoutingStatus;
import dev.loomlab.cargotracker.domain.cargo.TrackingId;
import dev.loomlab.cargotracker.domain.cargo.TransportStatus;
import dev.loomlab.cargotracker.domain.cargo.UnknownCargoException;
import dev.loomlab.cargotracker.domain.handling.HandlingEventRepository;
import dev.loomlab.cargotracker.domain.handling.HandlingEventType;
import dev.loomlab.cargotracker.domain.location.UnLocode;
import dev.loomlab.cargotracker.domain.location.UnknownLocationException;
import dev.loomlab.cargotracker.domain.shared.DomainException;
import dev.loomlab.cargotracker.domain.voyage.VoyageNumber;
import dev.loomlab.cargotracker.domain.voyage.VoyageRepository;
import dev.loomlab.cargotracker.infrastructure.config.DataFolder;
import dev.loomlab.cargotracker.infrastructure.sampledata.SampleDataSeeder;
import jakarta.inject.Inject;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.List;
import java.util.function.Supplier;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * CargoTracker on a real Payara Micro in the thread mode of this Failsafe execution. One class, so
 * each mode costs one server start. The service tests run inside the server (injected services,
 * real transactions); the API, browser and load tests run as clients against the same server.
 */
@ExtendWith(ArquillianExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CargoTrackerIT {

    private static final Duration INSPECTION_TIMEOUT = Duration.ofSeconds(20);

    @Inject
    BookingService booking;
    @Inject
    HandlingEventService handling;
    @Inject
    CargoQueries queries;
    @Inject
    CargoRepository cargos;
    @Inject
    HandlingEventRepository events;
    @Inject
    VoyageRepository voyages;
    @Inject
    SampleDataSeeder seeder;

    @ArquillianResource
    URL base;

    @Deployment
    static WebArchive deployment() {
        return Deployments.cargoTrackerWar();
    }

    // ---- booking service (in the server) ----

    @Test
    @Order(1)
    void bookingRoutingAndAssigningARoute() {
        TrackingId id = booking.bookNewCargo(new UnLocode("CNSHA"), new UnLocode("USNYC"), Dates.today().plusDays(60));
        Cargo booked = queries.require(id);
        assertEquals(RoutingStatus.NOT_ROUTED, booked.delivery().routingStatus());
        assertEquals(TransportStatus.NOT_RECEIVED, booked.delivery().transportStatus());

        List<Itinerary> routes = booking.routeCandidates(id);
        assertFalse(routes.isEmpty(), "the sample network connects Shanghai and New York");
        for (int i = 0; i < routes.size(); i++) {
            Itinerary route = routes.get(i);
            assertTrue(booked.routeSpecification().isSatisfiedBy(route), route.toString());
            assertFalse(route.firstLeg().loadTime().isBefore(Dates.now().minusMinutes(1)), "leaves in the future: " + route);
            for (Leg leg : route.legs()) {
                assertTrue(voyages.find(leg.voyage()).orElseThrow().schedule().callsAt(leg.unloadLocation()), leg.toString());
            }
            if (i > 0) {
                assertFalse(route.finalArrivalTime().isBefore(routes.get(i - 1).finalArrivalTime()), "best first");
            }
        }
        booking.assignRoute(id, routes.get(0));
        Cargo routed = queries.require(id);
        assertEquals(RoutingStatus.ROUTED, routed.delivery().routingStatus());
        assertEquals(routes.get(0).finalArrivalTime(), routed.delivery().eta().orElseThrow());
    }

    @Test
    @Order(2)
    void refusedBookingsWriteNothing() {
        long before = cargos.count();
        LocalDate later = Dates.today().plusDays(30);
        assertThrows(UnknownLocationException.class, () -> booking.bookNewCargo(new UnLocode("SEARN"), new UnLocode("USNYC"), later));
        DomainException past = assertThrows(DomainException.class,
                () -> booking.bookNewCargo(new UnLocode("CNSHA"), new UnLocode("USNYC"), Dates.today().minusDays(1)));
        assertTrue(past.getMessage().contains("in the past"), past.getMessage());
        assertThrows(DomainException.class, () -> booking.bookNewCargo(new UnLocode("CNSHA"), new UnLocode("CNSHA"), later));
        assertThrows(UnknownCargoException.class, () -> booking.changeDestination(new TrackingId("NOPE1234"), new UnLocode("USNYC")));
        assertEquals(before, cargos.count());
    }

    @Test
    @Order(3)
    void changingDestinationMisroutesAndAPastDeadlineIsRefused() {
        TrackingId id = booking.bookNewCargo(new UnLocode("HKHKG"), new UnLocode("USLGB"), Dates.today().plusDays(45));
        booking.assignRoute(id, booking.routeCandidates(id).get(0));
        booking.changeDestination(id, new UnLocode("USDAL"));
        assertEquals(RoutingStatus.MISROUTED, queries.require(id).delivery().routingStatus());
        assertThrows(DomainException.class, () -> booking.changeDeadline(id, Dates.today().minusDays(3)));
        assertEquals(Dates.today().plusDays(45), queries.require(id).routeSpecification().arrivalDeadline(), "unchanged");
        booking.assignRoute(id, booking.routeCandidates(id).get(0));
        assertEquals(RoutingStatus.ROUTED, queries.require(id).delivery().routingStatus());
    }

    // ---- handling service and asynchronous inspection (in the server) ----

    @Test
    @Order(4)
    void handlingIsInspectedAsynchronouslyUntilMisdirected() {
        TrackingId id = booking.bookNewCargo(new UnLocode("CNSHA"), new UnLocode("DEHAM"), Dates.today().plusDays(60));
        Itinerary route = booking.routeCandidates(id).stream().filter(r -> strayPort(r.firstLeg()) != null).findFirst()
                .orElseThrow(() -> new AssertionError("a route whose first voyage calls at a port it does not use"));
        booking.assignRoute(id, route);
        Leg first = route.firstLeg();

        handling.register(new HandlingReport(Dates.now(), id, HandlingEventType.RECEIVE, first.loadLocation(), null));
        awaitDelivery(id, "received", () -> queries.require(id).delivery().transportStatus() == TransportStatus.IN_PORT);
        handling.register(new HandlingReport(Dates.now(), id, HandlingEventType.LOAD, first.loadLocation(), first.voyage()));
        awaitDelivery(id, "on board", () -> queries.require(id).delivery().transportStatus() == TransportStatus.ONBOARD_CARRIER);
        assertEquals(first.voyage(), queries.require(id).delivery().currentVoyage().orElseThrow());

        UnLocode stray = strayPort(first);
        handling.register(new HandlingReport(Dates.now(), id, HandlingEventType.UNLOAD, stray, first.voyage()));
        awaitDelivery(id, "misdirected", () -> queries.require(id).delivery().isMisdirected());
        Cargo misdirected = queries.require(id);
        assertTrue(misdirected.delivery().eta().isEmpty());
        assertEquals(stray, misdirected.delivery().lastKnownLocation().orElseThrow());
        assertEquals(3, queries.history(id).events().size());

        List<Itinerary> reroutes = booking.routeCandidates(id);
        assertFalse(reroutes.isEmpty(), "a misdirected cargo can be re-routed from where it is");
        assertEquals(stray, reroutes.get(0).initialDeparture());
        booking.assignRoute(id, reroutes.get(0));
        Cargo rerouted = queries.require(id);
        assertFalse(rerouted.delivery().isMisdirected());
        assertEquals(RoutingStatus.ROUTED, rerouted.delivery().routingStatus());
    }

    @Test
    @Order(5)
    void refusedHandlingReportsWriteNothing() {
        TrackingId sample = new TrackingId("LOOM0003");
        long before = events.count();
        UnLocode tokyo = new UnLocode("JPTYO");
        assertThrows(UnknownCargoException.class,
                () -> handling.register(new HandlingReport(Dates.now(), new TrackingId("NOPE1234"), HandlingEventType.RECEIVE, tokyo, null)));
        assertThrows(UnknownLocationException.class,
                () -> handling.register(new HandlingReport(Dates.now(), sample, HandlingEventType.RECEIVE, new UnLocode("SEARN"), null)));
        DomainException noVoyage = assertThrows(DomainException.class,
                () -> handling.register(new HandlingReport(Dates.now(), sample, HandlingEventType.LOAD, tokyo, null)));
        assertEquals("voyageNumber", noVoyage.field());
        DomainException wrongPort = assertThrows(DomainException.class, () -> handling.register(new HandlingReport(
                Dates.now(), sample, HandlingEventType.LOAD, new UnLocode("FIHEL"), anyVoyageNotCallingAt(new UnLocode("FIHEL")))));
        assertTrue(wrongPort.getMessage().contains("does not call at"), wrongPort.getMessage());
        assertThrows(DomainException.class,
                () -> handling.register(new HandlingReport(Dates.now().plusDays(2), sample, HandlingEventType.CUSTOMS, tokyo, null)));
        assertEquals(before, events.count());
    }

    // ---- sample data and persistence (in the server) ----

    @Test
    @Order(6)
    void sampleDataIsInEveryStateAndSeedingAgainAddsNothing() throws Exception {
        assertEquals(new SampleDataSeeder.Result(0, 0, 0), seeder.seed());
        assertEquals(TransportStatus.ONBOARD_CARRIER, queries.require(new TrackingId("LOOM0004")).delivery().transportStatus());
        assertTrue(queries.require(new TrackingId("LOOM0006")).delivery().isMisdirected());
        assertEquals(TransportStatus.CLAIMED, queries.require(new TrackingId("LOOM0008")).delivery().transportStatus());
        assertEquals(RoutingStatus.NOT_ROUTED, queries.require(new TrackingId("LOOM0001")).delivery().routingStatus());
        assertEquals(RoutingStatus.MISROUTED, queries.require(new TrackingId("LOOM0009")).delivery().routingStatus());

        Path folder = DataFolder.path();
        assertEquals(Path.of(System.getProperty(DataFolder.PROPERTY)).toAbsolutePath(), folder);
        assertTrue(Files.isRegularFile(folder.resolve("cargotracker.mv.db")), "H2 keeps its data in " + folder);
    }

    // ---- REST, SSE and CSV import (as a client) ----

    @Test
    @Order(10)
    @RunAsClient
    void requestsRunOnTheThreadsOfTheMode() {
        boolean virtual = "virtual".equals(System.getProperty("cargotracker.mode"));
        Api.Answer info = new Api(base).get("api/info");
        assertEquals(200, info.status());
        assertEquals(virtual, info.json().getJsonObject("request").getBoolean("virtual"), info.body());
    }

    @Test
    @Order(11)
    @RunAsClient
    void restApiAnswersAndRefusesBadInputWithMessages() {
        ApiScenarios.run(new Api(base));
    }

    @Test
    @Order(12)
    @RunAsClient
    void serverSentEventsReportCargoUpdates() throws Exception {
        ApiScenarios.cargoUpdatesAreStreamed(new Api(base));
    }

    @Test
    @Order(13)
    @RunAsClient
    void csvImportRegistersGoodLinesAndReportsBadOnes() {
        ApiScenarios.csvImport(new Api(base));
    }

    @Test
    @Order(15)
    @RunAsClient
    void writesAndOperatorPagesNeedTheLoginAndTrackingStaysPublic() throws Exception {
        ApiScenarios.writesNeedTheOperatorsLogin(base);
    }

    @Test
    @Order(14)
    void uploadedFilesAreDeletedOnceTheirImportEnds() throws Exception {
        Path imports = DataFolder.path().resolve("imports");
        Await.until("uploaded CSV files to be deleted", Duration.ofSeconds(30), () -> {
            try (var files = Files.list(imports)) {
                return files.noneMatch(f -> f.toString().endsWith(".csv"));
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        assertTrue(Files.isDirectory(imports), "the import at order 13 used " + imports);
    }

    @Test
    @Order(20)
    @RunAsClient
    void bookRouteHandleAndTrackInABrowser() throws Exception {
        String mode = System.getProperty("cargotracker.mode", "unknown");
        // Each execution drives its browser on ports of its own (Payara 7's sets the property).
        int offset = Integer.getInteger("cargotracker.browser.port.offset", "virtual".equals(mode) ? 1 : 0);
        Path screenshots = Path.of(System.getProperty("cargotracker.screenshots", "target/screenshots"), mode);
        // -Dcargotracker.browser.repeats=20 proves the journey deterministic; CI runs it once.
        int repeats = Integer.getInteger("cargotracker.browser.repeats", 1);
        for (int run = 1; run <= repeats; run++) {
            try {
                BrowserJourney.run(base, screenshots, 18420 + offset, 18430 + offset);
            } catch (Exception | AssertionError e) {
                throw new AssertionError("browser journey " + run + " of " + repeats + " failed (" + mode + ")", e);
            }
            System.out.printf("browser journey %d of %d passed (%s)%n", run, repeats, mode);
        }
    }

    @Test
    @Order(30)
    @RunAsClient
    void aThousandParallelBookingsGiveAThousandUniquePersistedIds() throws Exception {
        ParallelBookings.run(new Api(base), 1000);
    }

    // ---- helpers (run in the server) ----

    private void awaitDelivery(TrackingId id, String state, Supplier<Boolean> reached) {
        try {
            Await.until("cargo " + id + " to be " + state, INSPECTION_TIMEOUT, reached);
        } catch (AssertionError e) {
            // What the inspection left behind, so a timeout says whether it never ran or got it wrong.
            throw new AssertionError(e.getMessage() + "; delivery is " + queries.require(id).delivery()
                    + " after " + queries.history(id).events(), e);
        }
    }

    /** A port the leg's voyage calls at between loading and unloading, or null. */
    private UnLocode strayPort(Leg leg) {
        return voyages.find(leg.voyage()).orElseThrow().schedule().movements().stream()
                .filter(m -> m.arrivalTime().isAfter(leg.loadTime()) && m.arrivalTime().isBefore(leg.unloadTime()))
                .map(m -> m.arrivalLocation())
                .findFirst().orElse(null);
    }

    private VoyageNumber anyVoyageNotCallingAt(UnLocode port) {
        return voyages.findArrivingAfter(Dates.now()).stream()
                .filter(v -> !v.schedule().callsAt(port))
                .findFirst().orElseThrow().voyageNumber();
    }
}
