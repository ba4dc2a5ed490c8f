package io.cloudg.fleet.worker;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.cloudg.metrics.CloudgMetrics;
import io.cloudg.metrics.MetricsHttp;
import io.cloudg.config.StartupException;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import io.cloudg.config.BindAddress;
import java.nio.charset.StandardCharsets;
import java.util.function.BooleanSupplier;

/**
 * {@code GET /healthz} (liveness) and {@code GET /readyz} (readiness) for Kubernetes probes, and
 * {@code GET /metrics} (Prometheus text) on the same port.
 */
public final class HealthServer implements AutoCloseable {
    private final HttpServer server;

    public HealthServer(int port, WorkerHealth health) {
        this(null, port, health, CloudgMetrics.none());
    }

    public HealthServer(int port, WorkerHealth health, CloudgMetrics metrics) {
        this(null, port, health, metrics);
    }

    /** The probes on {@code host} ({@code fleet.worker.health_host}; null: every interface) and {@code port}. */
    public HealthServer(String host, int port, WorkerHealth health, CloudgMetrics metrics) {
        try {
            server = HttpServer.create(BindAddress.resolve("fleet.worker.health_host", host, port), 8);
        } catch (java.net.BindException e) {
            throw new StartupException(BindAddress.bindFailure(e, "fleet.worker.health_host", host, port,
                    "give each worker on this host its own --health-port (fleet.worker.health_port), or 0 for none"), e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot serve the health probes on port " + port + ": " + e.getMessage(), e);
        }
        server.createContext("/healthz", x -> answer(x, health::live, health));
        server.createContext("/readyz", x -> answer(x, health::ready, health));
        server.createContext("/metrics", MetricsHttp.handler(metrics));
        server.setExecutor(null);
        server.start();
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** The address it listens on ({@code 0.0.0.0} or {@code ::} for every interface). */
    public String host() {
        return server.getAddress().getAddress().getHostAddress();
    }

    private static void answer(HttpExchange x, BooleanSupplier ok, WorkerHealth health) throws IOException {
        byte[] b = health.describe().getBytes(StandardCharsets.UTF_8);
        x.getResponseHeaders().add("Content-Type", "application/json");
        x.sendResponseHeaders(ok.getAsBoolean() ? 200 : 503, b.length);
        try (OutputStream o = x.getResponseBody()) {
            o.write(b);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
