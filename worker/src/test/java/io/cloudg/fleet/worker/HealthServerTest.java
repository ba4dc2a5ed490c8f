package io.cloudg.fleet.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cloudg.metrics.CloudgMetrics;
import io.cloudg.resilience.time.ManualTimeSource;
import io.cloudg.config.StartupException;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The probe server listens where {@code fleet.worker.health_host} says: every interface by default. */
class HealthServerTest {
    private final WorkerHealth health = new WorkerHealth(new ManualTimeSource(), Duration.ofSeconds(60));

    @Test
    void healthHostBindsThatAddressAndTheDefaultIsEveryInterface() throws Exception {
        try (HealthServer s = new HealthServer("127.0.0.1", 0, health, CloudgMetrics.none())) {
            assertThat(s.host()).isEqualTo("127.0.0.1");
            HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + s.port() + "/healthz")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(200);
        }
        try (HealthServer s = new HealthServer(0, health)) {
            assertThat(InetAddress.getByName(s.host()).isAnyLocalAddress()).isTrue();
        }
    }

    @Test
    void anAddressThisHostDoesNotHaveIsOneLineNamingTheKey() {
        assertThatThrownBy(() -> new HealthServer("192.0.2.1", 0, health, CloudgMetrics.none()))
                .isInstanceOf(StartupException.class)
                .hasMessageStartingWith("cannot listen on 192.0.2.1:0 (fleet.worker.health_host): ")
                .hasMessageNotContaining("\n");
    }
}
