package dev.loomlab.cargotracker.infrastructure.sampledata;

import dev.loomlab.cargotracker.domain.location.UnLocode;
import dev.loomlab.cargotracker.domain.voyage.Schedule;
import dev.loomlab.cargotracker.domain.voyage.Voyage;
import dev.loomlab.cargotracker.domain.voyage.VoyageNumber;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

/**
 * A weekly liner service (or rail shuttle): the same rotation of ports every week, leaving its
 * first port on the same weekday and hour. Each week's sailing is one voyage, numbered by service
 * code and departure date, e.g. TPE-251124, so materialising a week twice yields the same voyage.
 */
record ServiceLine(String code, DayOfWeek weekday, LocalTime departure, UnLocode firstPort, List<Call> calls) {

    private static final DateTimeFormatter DATE_SUFFIX = DateTimeFormatter.ofPattern("yyMMdd");

    /** A port of call: reached {@code hoursUnderway} after leaving the previous port, left again after {@code dwellHours}. */
    record Call(UnLocode port, int hoursUnderway, int dwellHours) {
    }

    static Builder service(String code, DayOfWeek weekday, int hour, UnLocode firstPort) {
        return new Builder(code, weekday, LocalTime.of(hour, 0), firstPort);
    }

    /** The sailings that leave the first port on a date in [from, to). */
    List<Voyage> sailingsBetween(LocalDate from, LocalDate to) {
        List<Voyage> voyages = new ArrayList<>();
        for (LocalDate day = from; day.isBefore(to); day = day.plusDays(1)) {
            if (day.getDayOfWeek() == weekday) {
                voyages.add(sailing(day.atTime(departure)));
            }
        }
        return voyages;
    }

    private Voyage sailing(LocalDateTime leaves) {
        Schedule.Builder schedule = Schedule.departingFrom(firstPort, leaves);
        LocalDateTime time = leaves;
        for (int i = 0; i < calls.size() - 1; i++) {
            Call call = calls.get(i);
            LocalDateTime arrival = time.plusHours(call.hoursUnderway());
            time = arrival.plusHours(call.dwellHours());
            schedule.arriveAt(call.port(), arrival, time);
        }
        Call last = calls.get(calls.size() - 1);
        VoyageNumber number = new VoyageNumber(code + "-" + leaves.format(DATE_SUFFIX));
        return new Voyage(number, schedule.endAt(last.port(), time.plusHours(last.hoursUnderway())));
    }

    static final class Builder {
        private final String code;
        private final DayOfWeek weekday;
        private final LocalTime departure;
        private final UnLocode firstPort;
        private final List<Call> calls = new ArrayList<>();

        private Builder(String code, DayOfWeek weekday, LocalTime departure, UnLocode firstPort) {
            this.code = code;
            this.weekday = weekday;
            this.departure = departure;
            this.firstPort = firstPort;
        }

        Builder call(UnLocode port, int hoursUnderway, int dwellHours) {
            calls.add(new Call(port, hoursUnderway, dwellHours));
            return this;
        }

        ServiceLine end(UnLocode port, int hoursUnderway) {
            calls.add(new Call(port, hoursUnderway, 0));
            return new ServiceLine(code, weekday, departure, firstPort, List.copyOf(calls));
        }
    }
}
