package io.cloudg.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.cloudg.inventory.ServiceCoverage;
import io.cloudg.resilience.time.TimeSource;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.metrics.v1.Metric;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * {@code metrics.otlp.url}: the process pushes its metrics in OTLP/HTTP protobuf, with its headers, and a
 * last time when it closes (a run shorter than one step is still seen). The receiver is an HTTP endpoint
 * that decodes what it gets with OpenTelemetry's own protobuf classes.
 */
class OtlpPushTest {
    @Test
    void closingPushesTheMetricsWithTheConfiguredHeaders() throws Exception {
        List<ExportMetricsServiceRequest> received = new CopyOnWriteArrayList<>();
        List<String> tenants = new CopyOnWriteArrayList<>();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 4);
        server.createContext("/v1/metrics", x -> {
            try (x) {
                received.add(ExportMetricsServiceRequest.parseFrom(x.getRequestBody().readAllBytes()));
                tenants.add(x.getRequestHeaders().getFirst("x-tenant"));
                x.sendResponseHeaders(200, -1);
            }
        });
        server.start();
        try {
            URI url = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/v1/metrics");
            MetricsSettings s = new MetricsSettings(0, false, Duration.ofSeconds(15), url, Duration.ofSeconds(60),
                    java.util.Map.of("x-tenant", "platform"));
            CloudgMetrics metrics = CloudgMetrics.open(s, "map", TimeSource.system());
            MapMetrics.of(metrics).covered("gcp", ServiceCoverage.success("assets", 7));
            metrics.close();
        } finally {
            server.stop(0);
        }
        assertThat(received).isNotEmpty();
        assertThat(tenants).containsOnly("platform");
        Set<String> names = new HashSet<>();
        Set<String> services = new HashSet<>();
        for (ExportMetricsServiceRequest r : received) {
            r.getResourceMetricsList().forEach(rm -> {
                rm.getResource().getAttributesList().stream().filter(a -> a.getKey().equals("service.name"))
                        .forEach(a -> services.add(a.getValue().getStringValue()));
                rm.getScopeMetricsList().forEach(sm -> sm.getMetricsList().stream().map(Metric::getName).forEach(names::add));
            });
        }
        assertThat(services).containsExactly("cloudg-map");
        assertThat(names).contains("cloudg.assets.mapped", "cloudg.coverage.entries", "jvm.memory.used");
    }
}
