package dev.loomlab.baselines.vertx;

import io.vertx.core.ThreadingModel;
import java.util.Arrays;
import java.util.stream.Collectors;

/** The two ways the Vert.x peer runs the lab endpoints; the target name is what ./lab bench calls it. */
public enum VertxModel {

    VIRTUAL("virtual", "vertx-virtual", ThreadingModel.VIRTUAL_THREAD,
            "virtual-thread verticles; each blocking call (Thread.sleep) on a virtual thread of its own, awaited"),
    EVENT_LOOP("eventloop", "vertx-eventloop", ThreadingModel.EVENT_LOOP,
            "event-loop verticles; every wait is a timer, nothing blocks");

    private final String cliName;
    private final String targetName;
    private final ThreadingModel threading;
    private final String description;

    VertxModel(String cliName, String targetName, ThreadingModel threading, String description) {
        this.cliName = cliName;
        this.targetName = targetName;
        this.threading = threading;
        this.description = description;
    }

    public String cliName() {
        return cliName;
    }

    public String targetName() {
        return targetName;
    }

    public ThreadingModel threading() {
        return threading;
    }

    public String description() {
        return description;
    }

    public static VertxModel fromCliName(String name) {
        return Arrays.stream(values()).filter(m -> m.cliName.equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown model '" + name + "'; choose one of: " + cliNames()));
    }

    public static String cliNames() {
        return Arrays.stream(values()).map(VertxModel::cliName).collect(Collectors.joining(" | "));
    }
}
