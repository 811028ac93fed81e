package dev.loomlab.cargotracker.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.net.URL;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** The REST API as a client sees it: answers, refusals with messages, and nothing written on refusal. */
final class ApiScenarios {

    private ApiScenarios() {
    }

    static void run(Api api) {
        listsAndDescribesCargo(api);
        String id = booksAndRefusesBadBookings(api);
        acceptsHandlingReportsAndRefusesBadOnes(api, id);
    }

    private static void listsAndDescribesCargo(Api api) {
        Api.Answer list = api.get("api/cargo");
        assertEquals(200, list.status());
        assertTrue(list.array().stream().map(JsonValue::asJsonObject)
                .anyMatch(c -> c.getString("trackingId").equals("LOOM0004") && c.getString("transportStatus").equals("ONBOARD_CARRIER")));

        JsonObject onBoard = api.get("api/cargo/LOOM0004").json();
        assertFalse(onBoard.getJsonArray("itinerary").isEmpty());
        assertEquals("ONBOARD_CARRIER", onBoard.getJsonObject("delivery").getString("transportStatus"));
        assertEquals(2, onBoard.getJsonArray("history").size());

        Api.Answer unknown = api.get("api/cargo/NOPE1234");
        assertEquals(404, unknown.status());
        assertTrue(unknown.messages().contains("No cargo with tracking id NOPE1234"), unknown.body());
        assertEquals(400, api.get("api/cargo/x!").status());
    }

    private static String booksAndRefusesBadBookings(Api api) {
        String deadline = Dates.today().plusDays(50).toString();
        int before = api.get("api/cargo").array().size();

        Api.Answer badCode = api.postJson("api/cargo", Api.bookingJson("X1", "USNYC", deadline));
        assertEquals(400, badCode.status());
        assertEquals("origin", badCode.json().getJsonArray("errors").getJsonObject(0).getString("field"));
        assertTrue(badCode.messages().contains("UN/LOCODE"), badCode.body());

        Api.Answer unknownPlace = api.postJson("api/cargo", Api.bookingJson("CNSHA", "SEARN", deadline));
        assertEquals(400, unknownPlace.status());
        assertTrue(unknownPlace.messages().contains("No location with UN/LOCODE SEARN"), unknownPlace.body());

        Api.Answer past = api.postJson("api/cargo", Api.bookingJson("CNSHA", "USNYC", Dates.today().minusDays(1).toString()));
        assertEquals(400, past.status());
        assertTrue(past.messages().contains("in the past"), past.body());

        Api.Answer malformed = api.postJson("api/cargo", "{\"origin\": ");
        assertEquals(400, malformed.status());
        assertTrue(malformed.messages().contains("not valid JSON"), malformed.body());
        assertEquals(400, api.postJson("api/cargo", "").status());
        assertEquals(before, api.get("api/cargo").array().size(), "refused bookings write nothing");

        Api.Answer booked = api.postJson("api/cargo", Api.bookingJson(" cnsha ", "USNYC", deadline));
        assertEquals(201, booked.status(), booked.body());
        String id = booked.json().getString("trackingId");
        assertEquals("NOT_ROUTED", api.get("api/cargo/" + id).json().getJsonObject("delivery").getString("routingStatus"));
        return id;
    }

    private static void acceptsHandlingReportsAndRefusesBadOnes(Api api, String id) {
        String now = Dates.now().toString();
        Api.Answer allWrong = api.postJson("api/handling/reports",
                "{\"completionTime\":\"yesterday\",\"trackingId\":\"X\",\"eventType\":\"EAT\",\"unLocode\":\"12345\"}");
        assertEquals(400, allWrong.status());
        assertEquals(4, allWrong.json().getJsonArray("errors").size(), allWrong.body());

        Api.Answer noVoyage = api.postJson("api/handling/reports", report(now, id, "LOAD", "CNSHA", null));
        assertEquals(400, noVoyage.status());
        assertTrue(noVoyage.messages().contains("needs a voyage number"), noVoyage.body());

        Api.Answer unknownCargo = api.postJson("api/handling/reports", report(now, "NOPE1234", "RECEIVE", "CNSHA", null));
        assertEquals(400, unknownCargo.status());
        assertTrue(unknownCargo.messages().contains("No cargo with tracking id NOPE1234"), unknownCargo.body());

        Api.Answer badPlace = api.postJson("api/handling/reports", report(now, id, "RECEIVE", "NL-RT", null));
        assertEquals(400, badPlace.status());
        assertTrue(badPlace.messages().contains("UN/LOCODE"), badPlace.body());
        assertTrue(api.get("api/cargo/" + id).json().getJsonArray("history").isEmpty(), "refused reports write nothing");

        Api.Answer accepted = api.postJson("api/handling/reports", report(now, id, "RECEIVE", "CNSHA", null));
        assertEquals(202, accepted.status(), accepted.body());
        Await.until("cargo " + id + " to be in port after RECEIVE", Duration.ofSeconds(20),
                () -> "IN_PORT".equals(api.get("api/cargo/" + id).json().getJsonObject("delivery").getString("transportStatus")),
                () -> api.get("api/cargo/" + id).body());
    }

    static void cargoUpdatesAreStreamed(Api api) throws Exception {
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        CompletableFuture<HttpResponse<Stream<String>>> stream = api.http().sendAsync(
                HttpRequest.newBuilder(api.uri("api/cargo/updates")).header("Accept", "text/event-stream").build(),
                HttpResponse.BodyHandlers.ofLines());
        Thread reader = Thread.ofVirtual().start(() -> {
            try (Stream<String> body = stream.join().body()) {
                body.forEach(lines::add);
            } catch (RuntimeException e) {
                // the stream is cut when the test ends
            }
        });
        try {
            awaitLine(lines, "event: connected", Duration.ofSeconds(20));
            String id = api.postJson("api/cargo", Api.bookingJson("SGSIN", "AUMEL", Dates.today().plusDays(30).toString()))
                    .json().getString("trackingId");
            String data = awaitLine(lines, id, Duration.ofSeconds(20));
            assertTrue(data.startsWith("data:"), data);
            assertTrue(data.contains("\"change\":\"booked\""), data);
            assertTrue(data.contains("\"routingStatus\":\"NOT_ROUTED\""), data);
        } finally {
            stream.thenAccept(response -> response.body().close());
            reader.interrupt();
        }
    }

    private static String awaitLine(BlockingQueue<String> lines, String containing, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            String line = lines.poll(200, TimeUnit.MILLISECONDS);
            if (line != null && line.contains(containing)) {
                return line;
            }
        }
        throw new AssertionError("no SSE line with '" + containing + "' within " + timeout.toSeconds() + " s");
    }

    /**
     * Reading and tracking are public; every write of the API needs the operator's login (401 with a
     * Basic challenge, also for a wrong password), and an operator page sends a browser to the login.
     */
    static void writesNeedTheOperatorsLogin(URL base) throws Exception {
        Api anonymous = Api.anonymous(base);
        String booking = Api.bookingJson("JPTYO", "USCHI", Dates.today().plusDays(40).toString());
        HttpResponse<String> refused = anonymous.http().send(HttpRequest.newBuilder(anonymous.uri("api/cargo"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(booking)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(401, refused.statusCode());
        assertTrue(refused.headers().firstValue("WWW-Authenticate").orElse("").startsWith("Basic"), refused.headers().toString());
        String wrong = "Basic " + Base64.getEncoder().encodeToString("admin:not-the-password".getBytes(StandardCharsets.UTF_8));
        assertEquals(401, Api.withAuthorization(base, wrong).postJson("api/cargo", booking).status());
        assertEquals(401, anonymous.postJson("api/handling/reports", report(Dates.now().toString(), "LOOM0001", "RECEIVE", "CNHKG", null)).status());
        assertEquals(401, anonymous.postCsv("api/handling/imports", "completionTime,trackingId,eventType,unLocode,voyageNumber\n").status());

        assertEquals(200, anonymous.get("api/cargo/LOOM0004").status(), "reading the API stays public");
        assertEquals(200, anonymous.get("track.xhtml?trackingId=LOOM0004").status(), "tracking stays public");
        for (String page : List.of("admin/dashboard.xhtml", "book.xhtml", "logger/index.xhtml")) {
            HttpResponse<Void> toLogin = anonymous.http().send(HttpRequest.newBuilder(anonymous.uri(page)).build(),
                    HttpResponse.BodyHandlers.discarding());
            assertEquals(302, toLogin.statusCode(), page);
            assertTrue(toLogin.headers().firstValue("Location").orElse("").contains("login.xhtml?next=%2F" + page.replace("/", "%2F")),
                    page + " -> " + toLogin.headers().firstValue("Location"));
        }
        assertEquals(201, new Api(base).postJson("api/cargo", booking).status(), "the operator may book");
    }

    static void csvImport(Api api) {
        String id = api.postJson("api/cargo", Api.bookingJson("JPTYO", "USCHI", Dates.today().plusDays(40).toString()))
                .json().getString("trackingId");
        String now = Dates.now().toString();
        String csv = String.join("\n",
                "completionTime,trackingId,eventType,unLocode,voyageNumber",
                now + "," + id + ",RECEIVE,JPTYO,",
                now + "," + id + ",LOAD,JPTYO,",
                "this is not an event",
                now + "," + id + ",CUSTOMS,SEARN,",
                "",
                now + ",NOPE1234,RECEIVE,JPTYO,") + "\n";
        Api.Answer started = api.postCsv("api/handling/imports", csv);
        assertEquals(202, started.status(), started.body());
        String report = "api/handling/imports/" + started.json().getString("importId");
        Await.until("import to complete", Duration.ofSeconds(30), () -> "COMPLETED".equals(api.get(report).json().getString("status")));

        JsonObject result = api.get(report).json();
        assertEquals(1, result.getInt("accepted"), result.toString());
        assertEquals(4, result.getInt("rejected"), result.toString());
        JsonArray rejected = result.getJsonArray("rejectedLines");
        assertEquals(List.of(3, 4, 5, 7), rejected.stream().map(l -> l.asJsonObject().getInt("line")).toList());
        assertTrue(rejected.getJsonObject(0).getString("message").contains("needs a voyage number"), rejected.toString());
        assertEquals("this is not an event", rejected.getJsonObject(1).getString("text"));
        assertTrue(rejected.getJsonObject(2).getString("message").contains("SEARN"), rejected.toString());
        assertTrue(rejected.getJsonObject(3).getString("message").contains("NOPE1234"), rejected.toString());
        assertEquals(1, api.get("api/cargo/" + id).json().getJsonArray("history").size(), "only the good line was registered");

        // The rejected lines come a page at a time.
        JsonObject secondPage = api.get(report + "?offset=1&limit=2").json();
        assertEquals(4, secondPage.getInt("rejected"));
        assertEquals(List.of(4, 5), secondPage.getJsonArray("rejectedLines").stream().map(l -> l.asJsonObject().getInt("line")).toList());
        assertEquals(400, api.get(report + "?limit=0").status());
        assertEquals(400, api.get(report + "?offset=x").status());
        // A file of more event lines than an import takes is refused whole, before anything is stored.
        String tooLong = "completionTime,trackingId,eventType,unLocode,voyageNumber\n"
                + (now + "," + id + ",CUSTOMS,USCHI,\n").repeat(10_001);
        Api.Answer refused = api.postCsv("api/handling/imports", tooLong);
        assertEquals(400, refused.status(), refused.body());
        assertTrue(refused.messages().contains("at most 10000 per import"), refused.body());

        Api.Answer wrongHeader = api.postCsv("api/handling/imports", "when,who,what\n1,2,3\n");
        assertEquals(400, wrongHeader.status());
        assertTrue(wrongHeader.messages().contains("header"), wrongHeader.body());
        assertEquals(400, api.postCsv("api/handling/imports", "").status());
        assertEquals(400, api.postCsv("api/handling/imports", "completionTime,trackingId,eventType,unLocode,voyageNumber\n").status());
    }

    private static String report(String time, String trackingId, String type, String place, String voyage) {
        var json = jakarta.json.Json.createObjectBuilder().add("completionTime", time).add("trackingId", trackingId)
                .add("eventType", type).add("unLocode", place);
        if (voyage != null) {
            json.add("voyageNumber", voyage);
        }
        return json.build().toString();
    }
}
