package dev.loomlab.baselines.helidon;

import dev.loomlab.api.ServerDescription;
import dev.loomlab.baselines.api.ApiResponse;
import dev.loomlab.baselines.api.LabApi;
import dev.loomlab.baselines.http.ServerSettings;
import io.helidon.common.Version;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;

/**
 * The lab endpoints on Helidon SE 4's WebServer, which runs every request on a new virtual thread
 * of its own: the same {@link LabApi} as the JDK servers (fan-out tasks on a virtual thread each),
 * so only the server differs.
 * <pre>java -Dport=8080 -jar baselines-helidon/target/baselines-helidon.jar</pre>
 * ({@code -Dhost}, {@code -Dport}, {@code -Dbacklog} as for the JDK servers.)
 */
public final class HelidonServer {

    public static final String NAME = "helidon";

    private HelidonServer() {
    }

    /** Starts listening; Helidon's defaults otherwise (no limit on concurrent requests or connections). */
    public static WebServer start(ServerSettings settings) {
        LabApi api = new LabApi(new ServerDescription(NAME,
                "Helidon SE " + Version.VERSION + " WebServer: a new virtual thread per request, unbounded", null));
        return WebServer.builder()
                .host(settings.host())
                .port(settings.port())
                .backlog(settings.backlog())
                // Every path and method to LabApi, so 404 and 405 answer exactly as on the JDK servers.
                .routing(routing -> routing.any((request, response) -> answer(api, request, response)))
                .build()
                .start();
    }

    private static void answer(LabApi api, ServerRequest request, ServerResponse response) {
        String path = request.path().rawPath();
        ApiResponse answer = api.handle(request.prologue().method().text(), path, request.query().rawValue(),
                request.content().hasEntity() ? request.content().inputStream() : null);
        response.status(answer.status());
        response.header(HeaderValues.CONTENT_TYPE_JSON);
        if (answer.status() == 405) {
            response.header(HeaderNames.ALLOW, LabApi.allowedMethod(path));
        }
        response.send(answer.json().getBytes(StandardCharsets.UTF_8));
    }

    public static void main(String[] args) {
        if (args.length > 0) {
            usage("takes no arguments, only -D options before -jar: " + String.join(" ", args));
        }
        ServerSettings settings;
        try {
            settings = ServerSettings.fromSystemProperties();
        } catch (IllegalArgumentException e) {
            usage(e.getMessage());
            return;
        }
        // Helidon reports a taken port as a logged stack trace and a server that is not running: check first.
        String problem = bindProblem(settings);
        WebServer server = null;
        if (problem == null) {
            try {
                server = start(settings);
            } catch (RuntimeException e) {
                problem = e.getMessage();
            }
        }
        if (server == null || !server.isRunning()) {
            System.err.println("helidon: cannot listen on " + settings.host() + ":" + settings.port() + ": "
                    + (problem != null ? problem : "the server did not start (see the log above)"));
            System.exit(1);
            return;
        }
        // Helidon's own shutdown hook stops the server on Ctrl-C / SIGTERM; its threads keep the JVM up until then.
        System.out.println("ready: http://" + settings.host() + ":" + server.port() + "/api/sleep?ms=100&depth=100  (pid "
                + ProcessHandle.current().pid() + ", Java " + Runtime.version() + ", Helidon " + Version.VERSION + ")");
    }

    private static String bindProblem(ServerSettings settings) {
        if (settings.port() == 0) {
            return null;
        }
        try (ServerSocket probe = new ServerSocket()) {
            probe.setReuseAddress(true);
            probe.bind(new InetSocketAddress(settings.host(), settings.port()));
            return null;
        } catch (IOException e) {
            return e.getMessage();
        }
    }

    private static void usage(String problem) {
        System.err.println("helidon: " + problem);
        System.err.println("usage: java [-Dport=8080] [-Dhost=127.0.0.1] [-Dbacklog=4096] -jar baselines-helidon.jar");
        System.exit(2);
    }
}
