package dev.loomlab.cargotracker.interfaces.web.logger;

import dev.loomlab.cargotracker.application.Clocks;
import dev.loomlab.cargotracker.application.handling.HandlingEventService;
import dev.loomlab.cargotracker.application.handling.HandlingReport;
import dev.loomlab.cargotracker.application.handling.HandlingReportParser;
import dev.loomlab.cargotracker.application.queries.CargoQueries;
import dev.loomlab.cargotracker.domain.cargo.Cargo;
import dev.loomlab.cargotracker.domain.cargo.TrackingId;
import dev.loomlab.cargotracker.domain.cargo.TransportStatus;
import dev.loomlab.cargotracker.domain.handling.HandlingActivity;
import dev.loomlab.cargotracker.domain.handling.HandlingEventType;
import dev.loomlab.cargotracker.domain.location.UnLocode;
import dev.loomlab.cargotracker.domain.shared.DomainException;
import dev.loomlab.cargotracker.domain.voyage.Voyage;
import dev.loomlab.cargotracker.domain.voyage.VoyageNumber;
import dev.loomlab.cargotracker.domain.voyage.VoyageRepository;
import dev.loomlab.cargotracker.interfaces.web.Messages;
import dev.loomlab.cargotracker.interfaces.web.view.CargoPresenter;
import jakarta.faces.model.SelectItem;
import jakarta.faces.view.ViewScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import java.io.Serializable;
import java.time.Clock;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The phone-sized event logger used on the quay: cargo, then what happened, then where (and on
 * which voyage), then when. It suggests the cargo's next expected activity, so the common case is
 * four taps; anything else can still be entered and is checked like every other report.
 */
@Named
@ViewScoped
public class EventLoggerWizard implements Serializable {

    private static final long serialVersionUID = 1L;
    private static final DateTimeFormatter INPUT_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm");
    /** Voyages offered for a port: those calling there within this many days of now. */
    private static final int VOYAGE_WINDOW_DAYS = 21;

    public enum Step { CARGO, ACTIVITY, PLACE, TIME, DONE }

    @Inject
    HandlingEventService handling;
    @Inject
    CargoQueries queries;
    @Inject
    VoyageRepository voyages;
    @Inject
    CargoPresenter presenter;
    @Inject
    Clock clock;

    private Step step = Step.CARGO;
    private String trackingId;
    private String eventType;
    private String location;
    private String voyageNumber;
    private String completionTime;
    private String suggestion;

    public String next() {
        try {
            switch (step) {
                case CARGO -> acceptCargo();
                case ACTIVITY -> acceptActivity();
                case PLACE -> acceptPlace();
                case TIME -> register();
                case DONE -> restart();
            }
        } catch (DomainException e) {
            Messages.error(e.getMessage());
        }
        return null;
    }

    public String back() {
        step = switch (step) {
            case ACTIVITY -> Step.CARGO;
            case PLACE -> Step.ACTIVITY;
            case TIME -> Step.PLACE;
            default -> step;
        };
        return null;
    }

    private void acceptCargo() {
        TrackingId id = TrackingId.parse(trackingId);
        Cargo cargo = queries.require(id);
        trackingId = id.id();
        if (cargo.delivery().transportStatus() == TransportStatus.CLAIMED) {
            throw new DomainException("trackingId", "Cargo " + id + " has already been claimed.");
        }
        cargo.delivery().nextExpectedActivity().ifPresentOrElse(this::suggest, () -> suggestion = null);
        step = Step.ACTIVITY;
    }

    private void suggest(HandlingActivity expected) {
        eventType = expected.type().name();
        location = expected.location().code();
        voyageNumber = expected.voyageIfAny().map(Object::toString).orElse(null);
        suggestion = expected.type().pastTense() + " in " + presenter.place(expected.location())
                + expected.voyageIfAny().map(v -> ", voyage " + v).orElse("");
    }

    private void acceptActivity() {
        HandlingReportParser.parseType(eventType);
        step = Step.PLACE;
    }

    private void acceptPlace() {
        UnLocode.parse(location);
        HandlingEventType type = HandlingReportParser.parseType(eventType);
        if (!type.requiresVoyage()) {
            voyageNumber = null;
        }
        // Same rule the service applies; checked here so the message shows on the step that can fix it.
        new HandlingActivity(type, UnLocode.parse(location), blank(voyageNumber) ? null
                : VoyageNumber.parse(voyageNumber));
        if (completionTime == null) {
            completionTime = Clocks.now(clock).truncatedTo(ChronoUnit.MINUTES).format(INPUT_TIME);
        }
        step = Step.TIME;
    }

    private void register() {
        HandlingReport report = HandlingReportParser.parse(completionTime, trackingId, eventType, location,
                blank(voyageNumber) ? null : voyageNumber);
        handling.register(report);
        step = Step.DONE;
    }

    private void restart() {
        step = Step.CARGO;
        trackingId = null;
        eventType = null;
        location = null;
        voyageNumber = null;
        completionTime = null;
        suggestion = null;
    }

    private static boolean blank(String text) {
        return text == null || text.isBlank();
    }

    public List<SelectItem> getEventTypes() {
        return Arrays.stream(HandlingEventType.values())
                .map(t -> new SelectItem(t.name(), t.pastTense()))
                .toList();
    }

    /** Voyages calling at the chosen place around now, for LOAD and UNLOAD. */
    public List<SelectItem> getVoyageOptions() {
        if (!UnLocode.isValid(location)) {
            return List.of();
        }
        LocalDateTime now = Clocks.now(clock);
        List<String> numbers = new ArrayList<>(voyages.findCallingAt(UnLocode.parse(location),
                        now.minusDays(VOYAGE_WINDOW_DAYS), now.plusDays(VOYAGE_WINDOW_DAYS))
                .stream().map(Voyage::voyageNumber).map(Object::toString).toList());
        if (!blank(voyageNumber) && !numbers.contains(voyageNumber)) {
            numbers.add(0, voyageNumber); // the suggested voyage may sail later than the window
        }
        return numbers.stream().map(number -> new SelectItem(number, number)).toList();
    }

    public boolean isVoyageNeeded() {
        HandlingEventType type = HandlingEventType.parseOrNull(eventType);
        return type != null && type.requiresVoyage();
    }

    /** "Loaded onto voyage X in Rotterdam (NLRTM) at 2025-11-24T14:30" for the confirmation. */
    public String getSummary() {
        HandlingEventType type = HandlingEventType.parseOrNull(eventType);
        String what = type == null ? "" : type.pastTense();
        String where = UnLocode.isValid(location) ? presenter.place(UnLocode.parse(location)) : "";
        return what + (isVoyageNeeded() && !blank(voyageNumber) ? " (voyage " + voyageNumber + ")" : "") + " in " + where;
    }

    public int getStepNumber() {
        return Math.min(step.ordinal() + 1, 4);
    }

    public Step getStep() {
        return step;
    }

    public String getSuggestion() {
        return suggestion;
    }

    public String getTrackingId() {
        return trackingId;
    }

    public void setTrackingId(String trackingId) {
        this.trackingId = trackingId;
    }

    public String getEventType() {
        return eventType;
    }

    public void setEventType(String eventType) {
        this.eventType = eventType;
    }

    public String getLocation() {
        return location;
    }

    public void setLocation(String location) {
        this.location = location;
    }

    public String getVoyageNumber() {
        return voyageNumber;
    }

    public void setVoyageNumber(String voyageNumber) {
        this.voyageNumber = voyageNumber;
    }

    public String getCompletionTime() {
        return completionTime;
    }

    public void setCompletionTime(String completionTime) {
        this.completionTime = completionTime;
    }
}
