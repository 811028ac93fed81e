package dev.loomlab.cargotracker.domain;

import dev.loomlab.cargotracker.domain.cargo.Leg;
import dev.loomlab.cargotracker.domain.cargo.TrackingId;
import dev.loomlab.cargotracker.domain.handling.HandlingActivity;
import dev.loomlab.cargotracker.domain.handling.HandlingEvent;
import dev.loomlab.cargotracker.domain.handling.HandlingEventType;
import dev.loomlab.cargotracker.domain.location.UnLocode;
import dev.loomlab.cargotracker.domain.voyage.VoyageNumber;
import java.time.LocalDateTime;

/** Small vocabulary for domain tests: places, voyages and times that read like the story they tell. */
public final class Fixtures {

    public static final UnLocode SHANGHAI = new UnLocode("CNSHA");
    public static final UnLocode HONG_KONG = new UnLocode("HKHKG");
    public static final UnLocode SINGAPORE = new UnLocode("SGSIN");
    public static final UnLocode ROTTERDAM = new UnLocode("NLRTM");
    public static final UnLocode HAMBURG = new UnLocode("DEHAM");
    public static final UnLocode NEW_YORK = new UnLocode("USNYC");
    public static final UnLocode CHICAGO = new UnLocode("USCHI");

    public static final VoyageNumber V1 = new VoyageNumber("V100");
    public static final VoyageNumber V2 = new VoyageNumber("V200");
    public static final VoyageNumber V3 = new VoyageNumber("V300");

    public static final TrackingId CARGO = new TrackingId("TEST0001");
    /** Day 0 of every story. */
    public static final LocalDateTime T0 = LocalDateTime.of(2030, 3, 1, 8, 0);

    private Fixtures() {
    }

    public static LocalDateTime day(int day) {
        return T0.plusDays(day);
    }

    public static Leg leg(VoyageNumber voyage, UnLocode from, UnLocode to, int loadDay, int unloadDay) {
        return new Leg(voyage, from, to, day(loadDay), day(unloadDay));
    }

    public static HandlingEvent event(HandlingEventType type, UnLocode place, VoyageNumber voyage, int day) {
        return new HandlingEvent(CARGO, new HandlingActivity(type, place, voyage), day(day), day(day).plusMinutes(1));
    }

    public static HandlingEvent onLand(HandlingEventType type, UnLocode place, int day) {
        return event(type, place, null, day);
    }
}
