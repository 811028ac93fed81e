package dev.loomlab.baselines.vertx;

import dev.loomlab.baselines.http.ServerSettings;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VerticleBase;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The lab endpoints on Vert.x 5, as a target beside Payara, Helidon and the JDK servers:
 * <pre>java -Dport=8080 -jar baselines-vertx/target/baselines-vertx.jar virtual|eventloop</pre>
 * ({@code -Dhost}, {@code -Dport}, {@code -Dbacklog} as for the JDK servers; {@code -Dinstances}
 * verticle instances, default Vert.x's event-loop count, 2 per core.)
 */
public final class VertxServer implements AutoCloseable {

    private final Vertx vertx;
    private final Waits waits;
    private final int port;
    private final VertxModel model;

    private VertxServer(Vertx vertx, Waits waits, int port, VertxModel model) {
        this.vertx = vertx;
        this.waits = waits;
        this.port = port;
        this.model = model;
    }

    /** Starts {@code instances} verticles of the model sharing host:port; port 0 picks a free one (use one instance then). */
    public static VertxServer start(VertxModel model, ServerSettings settings, int instances) throws Exception {
        Vertx vertx = Vertx.vertx(new VertxOptions());
        Waits waits = Waits.forModel(model, vertx);
        LabRoutes routes = new LabRoutes(model, waits);
        HttpServerOptions options = new HttpServerOptions().setHost(settings.host()).setPort(settings.port())
                .setAcceptBacklog(settings.backlog()).setTcpNoDelay(true);
        int[] boundPort = {0};
        try {
            Future<String> deployed = vertx.deployVerticle(() -> new VerticleBase() {
                @Override
                public Future<?> start() {
                    return vertx.createHttpServer(options).requestHandler(routes.router(vertx)).listen()
                            .onSuccess(server -> boundPort[0] = server.actualPort());
                }
            }, new DeploymentOptions().setThreadingModel(model.threading()).setInstances(instances));
            deployed.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            waits.close();
            vertx.close();
            throw e;
        }
        return new VertxServer(vertx, waits, boundPort[0], model);
    }

    public int port() {
        return port;
    }

    public VertxModel model() {
        return model;
    }

    @Override
    public void close() {
        try {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            // Stopping anyway: the process ends or the test moves on.
        } finally {
            waits.close();
        }
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            usage("give the model: " + VertxModel.cliNames());
            return;
        }
        VertxModel model;
        ServerSettings settings;
        int instances;
        try {
            model = VertxModel.fromCliName(args[0]);
            settings = ServerSettings.fromSystemProperties();
            instances = Integer.getInteger("instances", 2 * Runtime.getRuntime().availableProcessors());
            if (instances < 1) {
                throw new IllegalArgumentException("-Dinstances must be at least 1, was " + instances);
            }
        } catch (IllegalArgumentException e) {
            usage(e.getMessage());
            return;
        }
        VertxServer server;
        try {
            server = start(model, settings, instances);
        } catch (Exception e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            System.err.println(model.targetName() + ": cannot listen on " + settings.host() + ":" + settings.port() + ": " + cause.getMessage());
            System.exit(1);
            return;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            stopped.countDown();
        }, "stop-server"));
        System.out.println(model.targetName() + ": " + model.description() + " (" + instances + " verticle instances)");
        System.out.println("ready: http://" + settings.host() + ":" + server.port() + "/api/sleep?ms=100&depth=100  (pid "
                + ProcessHandle.current().pid() + ", Java " + Runtime.version() + ")");
        System.out.flush();
        stopped.await();
    }

    private static void usage(String problem) {
        System.err.println("vertx: " + problem);
        System.err.println("usage: java [-Dport=8080] [-Dhost=127.0.0.1] [-Dbacklog=4096] [-Dinstances=N] -jar baselines-vertx.jar "
                + VertxModel.cliNames());
        System.exit(2);
    }
}
