package dev.loomlab.app.sleep;

import dev.loomlab.api.SleepGauge;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;

/**
 * The application's one {@link SleepGauge}, for injection: the sleep resource counts on it and
 * the info resource reports it. The gauge is a plain lab-api class (the baselines carry it too),
 * so CDI gets it from here rather than by scanning lab-api's jar.
 */
@ApplicationScoped
public class SleepGaugeProducer {

    private final SleepGauge gauge = new SleepGauge();

    /** Public, so the call goes through the client proxy to the one instance and its gauge. */
    @Produces
    public SleepGauge gauge() {
        return gauge;
    }
}
