package dev.loomlab.app;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the running server should look like in the mode Failsafe launched it in
 * ({@code -Dloomlab.mode=...}, one execution per mode), told by the mode's name alone, independently
 * of the configuration files under test. labkit/tests/test_modes.py checks that these expectations
 * agree with what the lab reads from domain-config/.
 */
final class ModeUnderTest {

    /** Sized modes: platform-N (Grizzly's pool of N platform threads), virtual-N (at most N virtual threads at once),
     *  upstream-virtual-N (the same with Grizzly 5's executor). */
    private static final Pattern SIZED = Pattern.compile("(?<family>[a-z]+(?:-[a-z]+)*)-(?<size>[1-9][0-9]*)");
    /** For each sized family: whether its threads are virtual. */
    private static final Map<String, Boolean> SIZED_FAMILIES = Map.of("platform", false, "virtual", true, "upstream-virtual", true);

    static final ModeUnderTest VIRTUAL_BOUNDED_TEST = new ModeUnderTest("virtual-bounded-test", true, 10, 10);
    /** The modes a size does not name. */
    private static final Map<String, ModeUnderTest> NAMED = Map.of(
            "virtual", new ModeUnderTest("virtual", true, -1, -1),
            "virtual-reusing", new ModeUnderTest("virtual-reusing", true, -1, -1),
            VIRTUAL_BOUNDED_TEST.name, VIRTUAL_BOUNDED_TEST);

    final String name;
    final boolean virtual;
    /** Requests that may run at once; -1 when unbounded. */
    final int maxConcurrent;
    /** Requests that may wait for a turn; -1 when unlimited. */
    final int maxWaiting;

    private ModeUnderTest(String name, boolean virtual, int maxConcurrent, int maxWaiting) {
        this.name = name;
        this.virtual = virtual;
        this.maxConcurrent = maxConcurrent;
        this.maxWaiting = maxWaiting;
    }

    static ModeUnderTest current() {
        return named(System.getProperty("loomlab.mode"));
    }

    static ModeUnderTest named(String mode) {
        if (mode != null && NAMED.containsKey(mode)) {
            return NAMED.get(mode);
        }
        Matcher sized = SIZED.matcher(mode == null ? "" : mode);
        if (sized.matches() && SIZED_FAMILIES.containsKey(sized.group("family"))) {
            return new ModeUnderTest(mode, SIZED_FAMILIES.get(sized.group("family")), Integer.parseInt(sized.group("size")), -1);
        }
        throw new IllegalStateException("-Dloomlab.mode must name a mode of app/pom.xml's Failsafe executions, was " + mode);
    }

    boolean admitsAtOnce(int requests) {
        return maxConcurrent < 0 || maxConcurrent >= requests;
    }
}
