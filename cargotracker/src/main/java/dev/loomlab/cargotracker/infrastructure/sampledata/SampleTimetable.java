package dev.loomlab.cargotracker.infrastructure.sampledata;

import static dev.loomlab.cargotracker.infrastructure.sampledata.SamplePorts.*;
import static dev.loomlab.cargotracker.infrastructure.sampledata.ServiceLine.service;
import static java.time.DayOfWeek.*;

import dev.loomlab.cargotracker.domain.voyage.Voyage;
import java.time.LocalDate;
import java.util.List;

/**
 * The sample network: trans-Pacific, Asia-Europe, trans-Atlantic, Nordic and Oceania liner
 * services plus North American rail shuttles, each sailing weekly. Sailing times are rough but
 * plausible (Shanghai to Long Beach in about two weeks, Singapore to Rotterdam in three).
 */
final class SampleTimetable {

    static final List<ServiceLine> SERVICES = List.of(
            service("TPE", MONDAY, 8, HONG_KONG).call(SHANGHAI, 48, 12).call(TOKYO, 48, 12).end(LONG_BEACH, 264),
            service("TPW", THURSDAY, 20, LONG_BEACH).call(TOKYO, 288, 12).call(SHANGHAI, 48, 12).end(HONG_KONG, 48),
            service("AEW", TUESDAY, 6, SHANGHAI).call(HONG_KONG, 48, 12).call(SINGAPORE, 72, 24).call(ROTTERDAM, 480, 24).end(HAMBURG, 24),
            service("AEE", FRIDAY, 18, HAMBURG).call(ROTTERDAM, 24, 24).call(SINGAPORE, 480, 24).call(HONG_KONG, 72, 12).end(SHANGHAI, 48),
            service("TAW", WEDNESDAY, 10, HAMBURG).call(ROTTERDAM, 24, 12).end(NEW_YORK, 216),
            service("TAE", SATURDAY, 14, NEW_YORK).call(ROTTERDAM, 192, 12).end(HAMBURG, 24),
            service("NFN", MONDAY, 22, HAMBURG).call(GOTHENBURG, 36, 10).end(HELSINKI, 48),
            service("NFS", THURSDAY, 6, HELSINKI).call(GOTHENBURG, 48, 10).end(HAMBURG, 36),
            service("OCS", WEDNESDAY, 2, SINGAPORE).end(MELBOURNE, 168),
            service("OCN", SUNDAY, 12, MELBOURNE).call(SINGAPORE, 168, 24).end(HONG_KONG, 72),
            service("RLE", TUESDAY, 4, LONG_BEACH).call(DALLAS, 40, 6).end(CHICAGO, 30),
            service("RLW", SATURDAY, 4, CHICAGO).call(DALLAS, 30, 6).end(LONG_BEACH, 40),
            service("RNY", WEDNESDAY, 16, NEW_YORK).end(CHICAGO, 28),
            service("RNE", SUNDAY, 16, CHICAGO).end(NEW_YORK, 28));

    /** How far back and ahead of today voyages exist: enough history for the sample cargos and two months of bookings. */
    static final int WEEKS_BACK = 6;
    static final int WEEKS_AHEAD = 10;

    private SampleTimetable() {
    }

    static List<Voyage> voyagesAround(LocalDate today) {
        LocalDate from = today.minusWeeks(WEEKS_BACK);
        LocalDate to = today.plusWeeks(WEEKS_AHEAD);
        return SERVICES.stream().flatMap(service -> service.sailingsBetween(from, to).stream()).toList();
    }
}
