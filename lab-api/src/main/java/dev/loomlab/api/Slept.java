package dev.loomlab.api;

/**
 * What one blocking {@code GET /api/sleep} did, the fields of its answer: whether the thread that
 * slept was virtual, its name, the sleep taken and the call depth it slept at. Each server writes
 * these four as JSON with its own API (JSON-P in the WAR, {@link Json} in the plain-JDK server).
 */
public record Slept(boolean virtual, String thread, int sleptMs, int depth) {

    /**
     * Takes {@code request}'s sleep on the calling thread, counted by {@code gauge} while it blocks:
     * the one sleep handler of every server whose request threads may block (the Vert.x baseline's
     * event loop may not, and schedules a timer instead).
     */
    public static Slept block(SleepRequest request, SleepGauge gauge) throws InterruptedException {
        int sleptMs = request.drawMs();
        int reached;
        gauge.enter();
        try {
            reached = SleepRequest.descendThenSleep(request.depth(), sleptMs);
        } finally {
            gauge.leave();
        }
        Thread thread = Thread.currentThread();
        return new Slept(thread.isVirtual(), thread.getName(), sleptMs, reached);
    }
}
