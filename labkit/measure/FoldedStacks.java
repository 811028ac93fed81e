/*
 * The CPU samples of one window of a JFR recording, as folded stacks: one line per distinct stack,
 * "root;...;leaf COUNT", the frames as Class.method. labkit/measure/flamegraph.py draws them.
 *
 * Why Java: `jfr print --json` writes every frame as a nested object (a few hundred bytes each), so
 * whole stacks of a window's thousands of samples are tens of megabytes of JSON; the JDK's own
 * reader (jdk.jfr.consumer) folds them in one pass. Run with the source launcher, no build:
 *
 *   java FoldedStacks.java RECORDING.jfr FROM_EPOCH_MS TO_EPOCH_MS
 */
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

public class FoldedStacks {
    static final String SAMPLE = "jdk.ExecutionSample";
    // A stack JFR cut at its recording depth misses its root frames: it is drawn under this root.
    static final String TRUNCATED = "(stack cut by JFR)";

    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            System.err.println("usage: java FoldedStacks.java RECORDING.jfr FROM_EPOCH_MS TO_EPOCH_MS");
            System.exit(2);
        }
        Instant from = Instant.ofEpochMilli(Long.parseLong(args[1]));
        Instant to = Instant.ofEpochMilli(Long.parseLong(args[2]));
        Map<String, Integer> counts = new HashMap<>();
        try (RecordingFile recording = new RecordingFile(Path.of(args[0]))) {
            while (recording.hasMoreEvents()) {
                RecordedEvent event = recording.readEvent();
                if (!event.getEventType().getName().equals(SAMPLE)) {
                    continue;
                }
                Instant at = event.getStartTime();
                if (at.isBefore(from) || at.isAfter(to)) {
                    continue;
                }
                counts.merge(folded(event.getStackTrace()), 1, Integer::sum);
            }
        }
        StringBuilder out = new StringBuilder();
        counts.forEach((stack, count) -> out.append(stack).append(' ').append(count).append('\n'));
        System.out.print(out);
    }

    /** The frames root first, joined by ';' (a frame's own ';' and spaces cannot occur in Class.method). */
    static String folded(RecordedStackTrace trace) {
        if (trace == null || trace.getFrames().isEmpty()) {
            return "(no stack)";
        }
        List<RecordedFrame> frames = trace.getFrames();
        StringBuilder stack = new StringBuilder(trace.isTruncated() ? TRUNCATED : "");
        for (int i = frames.size() - 1; i >= 0; i--) {
            if (!stack.isEmpty()) {
                stack.append(';');
            }
            var method = frames.get(i).getMethod();
            stack.append(method.getType().getName()).append('.').append(method.getName());
        }
        return stack.toString();
    }
}
