package io.cloudg.mcp;

import io.cloudg.metrics.CloudgMetrics;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * {@code GET /metrics} on the MCP HTTP server: the process's metrics in the Prometheus text format. Not
 * behind the bearer tokens of the MCP endpoint (a scraper has none); it names no account unless
 * {@code metrics.per_account} is on.
 */
final class MetricsServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    private final transient CloudgMetrics metrics;

    MetricsServlet(CloudgMetrics metrics) {
        this.metrics = metrics;
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        byte[] body = metrics.scrape().getBytes(StandardCharsets.UTF_8);
        resp.setStatus(200);
        resp.setContentType(CloudgMetrics.CONTENT_TYPE);
        resp.setContentLength(body.length);
        resp.getOutputStream().write(body);
    }
}
