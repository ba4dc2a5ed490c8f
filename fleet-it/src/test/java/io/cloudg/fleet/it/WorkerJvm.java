package io.cloudg.fleet.it;

import io.cloudg.fleet.local.ChildProcess;
import io.cloudg.fleet.local.FreePorts;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** A worker in its own JVM, started from this test class path, with its probes on a port of its own. */
final class WorkerJvm implements AutoCloseable {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    final String id;
    final int healthPort;
    final ChildProcess process;

    WorkerJvm(Path config, String id, Path logDir) {
        this.id = id;
        this.healthPort = FreePorts.next();
        this.process = ChildProcess.start("worker " + id, ChildProcess.java(System.getProperty("java.class.path"),
                List.of("-Xms32m", "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                        "-Djdk.virtualThreadScheduler.parallelism=8"),
                WorkerProcessMain.class.getName(), List.of(config.toString(), id, Integer.toString(healthPort))),
                logDir, logDir.resolve("worker-" + id + ".log"));
    }

    /** {@code GET /readyz}'s status, or 0 when nothing answers. */
    int ready() {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + healthPort + "/readyz"))
                    .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            return 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 0;
        }
    }

    /** SIGTERM; returns the exit status. */
    int terminate() {
        return process.stop(Duration.ofSeconds(40));
    }

    @Override
    public void close() {
        if (process.alive()) {
            process.kill();
        }
    }
}
