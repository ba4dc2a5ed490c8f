package io.cloudg.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudg.CloudGConfig;
import io.cloudg.metrics.CloudgMetrics;
import io.cloudg.metrics.MetricsSettings;
import io.cloudg.resilience.config.RateLimitConfig;
import io.cloudg.resilience.time.TimeSource;
import io.cloudg.sim.CloudSim;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET /metrics} beside the MCP endpoint: served without a token (a scraper has none) while the MCP
 * endpoint still wants one; the governor the server makes reports through it; absent without metrics.
 */
class McpMetricsTest {
    private static CloudSim sim;
    final HttpClient http = HttpClient.newHttpClient();

    @TempDir
    Path dir;

    @BeforeAll
    static void startSim() {
        sim = McpTestKit.startSim();
    }

    @AfterAll
    static void stopSim() {
        sim.close();
    }

    HttpResponse<String> get(URI uri) throws Exception {
        return http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void metricsAreServedBesideTheMcpEndpointWithoutItsToken() throws Exception {
        CloudGConfig config = McpTestKit.config(sim, dir, RateLimitConfig.defaults()).build();
        try (CloudgMetrics metrics = CloudgMetrics.open(MetricsSettings.DEFAULTS, "mcp", TimeSource.system());
             CloudgMcp mcp = CloudgMcp.builder(config).mcp(McpTestKit.mcp(dir)).metrics(metrics).build();
             CloudgMcp.HttpEndpoint endpoint = mcp.serveHttp()) {
            URI base = endpoint.uri().resolve("/");
            HttpResponse<String> r = get(base.resolve("/metrics"));
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.headers().firstValue("Content-Type")).hasValue(CloudgMetrics.CONTENT_TYPE);
            assertThat(r.body()).contains("jvm_memory_used_bytes", "cloudg_governor_degraded");
            assertThat(get(endpoint.uri()).statusCode()).as("the MCP endpoint still wants a token").isEqualTo(401);
        }
    }

    @Test
    void withoutMetricsThereIsNoMetricsPath() throws Exception {
        CloudGConfig config = McpTestKit.config(sim, dir, RateLimitConfig.defaults()).build();
        try (CloudgMcp mcp = CloudgMcp.builder(config).mcp(McpTestKit.mcp(dir)).build();
             CloudgMcp.HttpEndpoint endpoint = mcp.serveHttp()) {
            assertThat(get(endpoint.uri().resolve("/metrics")).statusCode()).isEqualTo(404);
        }
    }
}
