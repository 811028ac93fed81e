package dev.loomlab.cargotracker.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;

/** Many customers booking at the same moment: every booking gets its own id, and every one is stored. */
final class ParallelBookings {

    private static final String[][] LANES = {{"CNSHA", "DEHAM"}, {"HKHKG", "USNYC"}, {"SGSIN", "AUMEL"},
            {"JPTYO", "USCHI"}, {"NLRTM", "FIHEL"}, {"USLGB", "USDAL"}};

    private ParallelBookings() {
    }

    static void run(Api api, int bookings) throws Exception {
        Set<String> before = trackingIds(api);
        String deadline = Dates.today().plusDays(90).toString();
        List<Future<Api.Answer>> answers = new ArrayList<>();
        // One virtual thread per customer: all requests are in flight at once.
        try (ExecutorService customers = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < bookings; i++) {
                String[] lane = LANES[i % LANES.length];
                answers.add(customers.submit(() -> api.postJson("api/cargo", Api.bookingJson(lane[0], lane[1], deadline))));
            }
        }
        Set<String> ids = new HashSet<>();
        for (Future<Api.Answer> answer : answers) {
            Api.Answer a = answer.get();
            assertEquals(201, a.status(), a.body());
            ids.add(a.json().getString("trackingId"));
        }
        assertEquals(bookings, ids.size(), "every booking got its own tracking id");

        Set<String> after = trackingIds(api);
        assertTrue(after.containsAll(ids), "every booked id is stored");
        assertEquals(before.size() + bookings, after.size(), "exactly these bookings were added");
    }

    private static Set<String> trackingIds(Api api) {
        return api.get("api/cargo").array().stream().map(JsonValue::asJsonObject)
                .map(c -> c.getString("trackingId")).collect(Collectors.toSet());
    }
}
