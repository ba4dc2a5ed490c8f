package io.cloudg.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudg.inventory.CoverageStatus;
import io.cloudg.inventory.ServiceCoverage;
import io.cloudg.resilience.time.ManualTimeSource;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/** {@code GET /metrics} answers the Prometheus text; the JVM and process binders are in it; other methods are refused. */
class MetricsHttpTest {
    final HttpClient http = HttpClient.newHttpClient();

    @Test
    void getAnswersThePrometheusTextWithTheMappedAssetsAndTheJvm() throws Exception {
        try (CloudgMetrics metrics = CloudgMetrics.open(MetricsSettings.DEFAULTS, "test", new ManualTimeSource());
             MetricsHttp server = MetricsHttp.serve(0, metrics)) {
            MapMetrics.of(metrics).covered("aws", new ServiceCoverage("subnets", CoverageStatus.SUCCESS, 12, null));
            MapMetrics.of(metrics).covered("aws", new ServiceCoverage("vpcs", CoverageStatus.PARTIAL, 3, "throttled"));
            URI uri = URI.create("http://127.0.0.1:" + server.port() + "/metrics");
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.headers().firstValue("Content-Type")).hasValue(CloudgMetrics.CONTENT_TYPE);
            assertThat(r.body()).contains("cloudg_assets_mapped_total{provider=\"aws\"} 15.0",
                    "cloudg_coverage_entries_total{provider=\"aws\",status=\"PARTIAL\"} 1.0",
                    "cloudg_coverage_entries_total{provider=\"aws\",status=\"FAILED\"} 0.0",
                    "jvm_memory_used_bytes", "process_cpu_usage", "jvm_gc_", "process_uptime_seconds");
            HttpResponse<String> post = http.send(HttpRequest.newBuilder(uri).POST(HttpRequest.BodyPublishers.noBody()).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(post.statusCode()).isEqualTo(405);
        }
    }

    @Test
    void metricsHostBindsThatAddressOnlyAndAnAddressThisHostLacksIsOneLine() throws Exception {
        try (MetricsHttp server = MetricsHttp.serve("127.0.0.1", 0, CloudgMetrics.none())) {
            assertThat(server.host()).isEqualTo("127.0.0.1");
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port()
                    + "/metrics")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(200);
        }
        try (MetricsHttp every = MetricsHttp.serve(0, CloudgMetrics.none())) {
            assertThat(java.net.InetAddress.getByName(every.host()).isAnyLocalAddress()).as("the default: every interface")
                    .isTrue();
        }
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> MetricsHttp.serve("192.0.2.1", 0, CloudgMetrics.none()))
                .isInstanceOf(io.cloudg.config.StartupException.class)
                .hasMessageStartingWith("cannot listen on 192.0.2.1:0 (metrics.host): ").hasMessageNotContaining("\n");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> MetricsHttp.serve("no-such-host.invalid", 0,
                CloudgMetrics.none())).isInstanceOf(io.cloudg.config.StartupException.class)
                .hasMessage("cannot listen on metrics.host \"no-such-host.invalid\": no such host");
    }

    @Test
    void aProcessWithoutMetricsServesAnEmptyPage() throws Exception {
        CloudgMetrics none = CloudgMetrics.none();
        MapMetrics.of(none).covered("aws", ServiceCoverage.success("subnets", 5));
        try (MetricsHttp server = MetricsHttp.serve(0, none)) {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port()
                    + "/metrics")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.body()).isEmpty();
        }
    }
}
