package io.cloudg.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import io.cloudg.config.BindAddress;
import java.nio.charset.StandardCharsets;

/**
 * {@code GET /metrics} over the JDK's HTTP server: a {@link #handler} for a server that serves more (the
 * worker's probes), and {@link #serve} for a server of its own ({@code --metrics-port}).
 */
public final class MetricsHttp implements AutoCloseable {
    private final HttpServer server;

    private MetricsHttp(HttpServer server) {
        this.server = server;
    }

    /** Answers {@code GET} (and {@code HEAD}) with the Prometheus text of {@code metrics}; 405 otherwise. */
    public static HttpHandler handler(CloudgMetrics metrics) {
        return x -> answer(x, metrics);
    }

    private static void answer(HttpExchange x, CloudgMetrics metrics) throws IOException {
        try (x) {
            String method = x.getRequestMethod();
            if (!method.equals("GET") && !method.equals("HEAD")) {
                x.getResponseHeaders().add("Allow", "GET, HEAD");
                x.sendResponseHeaders(405, -1);
                return;
            }
            byte[] body = metrics.scrape().getBytes(StandardCharsets.UTF_8);
            x.getResponseHeaders().add("Content-Type", CloudgMetrics.CONTENT_TYPE);
            if (method.equals("HEAD")) {
                x.sendResponseHeaders(200, -1);
                return;
            }
            x.sendResponseHeaders(200, body.length == 0 ? -1 : body.length);
            if (body.length > 0) {
                try (OutputStream o = x.getResponseBody()) {
                    o.write(body);
                }
            }
        }
    }

    /** Serves {@code /metrics} on {@code port} (0: any free port) on every interface. */
    public static MetricsHttp serve(int port, CloudgMetrics metrics) {
        return serve(null, port, metrics);
    }

    /**
     * Serves {@code /metrics} on {@code host} ({@code metrics.host}; null: every interface) and {@code port}
     * (0: any free port).
     */
    public static MetricsHttp serve(String host, int port, CloudgMetrics metrics) {
        HttpServer s;
        try {
            s = HttpServer.create(BindAddress.resolve("metrics.host", host, port), 8);
        } catch (java.net.BindException e) {
            throw new io.cloudg.config.StartupException(BindAddress.bindFailure(e, "metrics.host", host, port,
                    "give --metrics-port (metrics.port) a free port, or 0 for any"), e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot serve /metrics on port " + port + ": " + e.getMessage(), e);
        }
        s.createContext("/metrics", handler(metrics));
        s.setExecutor(null);
        s.start();
        return new MetricsHttp(s);
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** The address it listens on ({@code 0.0.0.0} or {@code ::} for every interface). */
    public String host() {
        return server.getAddress().getAddress().getHostAddress();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
