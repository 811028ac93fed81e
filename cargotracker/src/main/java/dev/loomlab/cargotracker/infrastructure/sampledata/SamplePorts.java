package dev.loomlab.cargotracker.infrastructure.sampledata;

import dev.loomlab.cargotracker.domain.location.Location;
import dev.loomlab.cargotracker.domain.location.UnLocode;
import java.util.List;

/** Thirteen real ports and inland hubs with their real UN/LOCODEs. */
final class SamplePorts {

    static final UnLocode HONG_KONG = new UnLocode("HKHKG");
    static final UnLocode SHANGHAI = new UnLocode("CNSHA");
    static final UnLocode SINGAPORE = new UnLocode("SGSIN");
    static final UnLocode TOKYO = new UnLocode("JPTYO");
    static final UnLocode MELBOURNE = new UnLocode("AUMEL");
    static final UnLocode ROTTERDAM = new UnLocode("NLRTM");
    static final UnLocode HAMBURG = new UnLocode("DEHAM");
    static final UnLocode GOTHENBURG = new UnLocode("SEGOT");
    static final UnLocode HELSINKI = new UnLocode("FIHEL");
    static final UnLocode NEW_YORK = new UnLocode("USNYC");
    static final UnLocode LONG_BEACH = new UnLocode("USLGB");
    static final UnLocode CHICAGO = new UnLocode("USCHI");
    static final UnLocode DALLAS = new UnLocode("USDAL");

    static final List<Location> ALL = List.of(
            new Location(HONG_KONG, "Hong Kong"),
            new Location(SHANGHAI, "Shanghai"),
            new Location(SINGAPORE, "Singapore"),
            new Location(TOKYO, "Tokyo"),
            new Location(MELBOURNE, "Melbourne"),
            new Location(ROTTERDAM, "Rotterdam"),
            new Location(HAMBURG, "Hamburg"),
            new Location(GOTHENBURG, "Gothenburg"),
            new Location(HELSINKI, "Helsinki"),
            new Location(NEW_YORK, "New York"),
            new Location(LONG_BEACH, "Long Beach"),
            new Location(CHICAGO, "Chicago"),
            new Location(DALLAS, "Dallas"));

    private SamplePorts() {
    }
}
