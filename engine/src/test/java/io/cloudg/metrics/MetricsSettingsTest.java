package io.cloudg.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cloudg.config.ConfigFile;
import io.cloudg.resilience.config.ConfigException;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The {@code metrics} block: defaults, every key, and each refusal naming the key and the value. */
class MetricsSettingsTest {
    @Test
    void absentIsOffWithoutAccountLabelsAndNoPush() {
        ConfigFile f = ConfigFile.empty();
        MetricsSettings s = MetricsSettings.from(f);
        assertThat(s).isEqualTo(MetricsSettings.DEFAULTS);
        assertThat(s.port()).isZero();
        assertThat(s.perAccount()).isFalse();
        assertThat(s.otlpUrl()).isNull();
    }

    @Test
    void everyKeyIsReadAndTheSectionIsNotUnknown() {
        ConfigFile f = ConfigFile.fromYaml("""
                metrics:
                  port: 9464
                  host: 127.0.0.1
                  per_account: true
                  state_refresh_seconds: 30
                  otlp:
                    url: http://collector:4318/v1/metrics
                    step_seconds: 5
                    headers: {x-tenant: platform}
                    headers_env: {authorization: OTLP_AUTH}
                """);
        MetricsSettings s = MetricsSettings.from(f, Map.of("OTLP_AUTH", "Bearer abc")::get);
        assertThat(s.port()).isEqualTo(9464);
        assertThat(s.host()).isEqualTo("127.0.0.1");
        assertThat(MetricsSettings.DEFAULTS.host()).as("every interface, as before the key existed").isNull();
        assertThat(s.perAccount()).isTrue();
        assertThat(s.stateRefresh()).isEqualTo(Duration.ofSeconds(30));
        assertThat(s.otlpUrl()).isEqualTo(URI.create("http://collector:4318/v1/metrics"));
        assertThat(s.otlpStep()).isEqualTo(Duration.ofSeconds(5));
        assertThat(s.otlpHeaders()).containsEntry("x-tenant", "platform").containsEntry("authorization", "Bearer abc");
        assertThat(f.warnings()).isEmpty();
        assertThat(ConfigFile.topLevelKeys()).contains("metrics");
    }

    @Test
    void anUnknownKeyIsWarnedAbout() {
        ConfigFile f = ConfigFile.fromYaml("metrics: {prot: 9464, otlp: {uri: x}}");
        MetricsSettings.from(f);
        assertThat(f.warnings()).hasSize(2).anySatisfy(w -> assertThat(w).contains("metrics.prot"))
                .anySatisfy(w -> assertThat(w).contains("metrics.otlp.uri"));
    }

    @Test
    void badValuesAreRefusedNamingTheKey() {
        assertThatThrownBy(() -> MetricsSettings.from(ConfigFile.fromYaml("metrics: {port: 70000}")))
                .isInstanceOf(ConfigException.class).hasMessage("metrics.port must be a port from 0 to 65535, but was 70000");
        assertThatThrownBy(() -> MetricsSettings.from(ConfigFile.fromYaml("metrics: {host: \"10.0.0.1:9464\"}")))
                .isInstanceOf(ConfigException.class).hasMessage("metrics.host must be an IP address or a host name to "
                        + "listen on, like 127.0.0.1, 0.0.0.0 or ::, but was \"10.0.0.1:9464\"");
        assertThatThrownBy(() -> MetricsSettings.from(ConfigFile.fromYaml("metrics: {host: \"http://x\"}")))
                .isInstanceOf(ConfigException.class).hasMessageStartingWith("metrics.host must be an IP address");
        assertThatThrownBy(() -> MetricsSettings.from(ConfigFile.fromYaml("metrics: {per_account: yes please}")))
                .isInstanceOf(ConfigException.class).hasMessageStartingWith("metrics.per_account must be true or false");
        assertThatThrownBy(() -> MetricsSettings.from(ConfigFile.fromYaml("metrics: {otlp: {url: ftp://x/v1}}")))
                .isInstanceOf(ConfigException.class).hasMessageStartingWith("metrics.otlp.url must be an http:// or https:// URL");
        assertThatThrownBy(() -> MetricsSettings.from(ConfigFile.fromYaml("metrics: {otlp: {step_seconds: 0.5}}")))
                .isInstanceOf(ConfigException.class).hasMessageStartingWith("metrics.otlp.step_seconds must be a number >= 1");
        assertThatThrownBy(() -> MetricsSettings.from(ConfigFile.fromYaml("metrics: {otlp: {headers_env: {authorization: NOPE}}}"),
                k -> null)).isInstanceOf(ConfigException.class)
                .hasMessage("metrics.otlp.headers_env.authorization must be the name of a set environment variable, but was \"NOPE (unset)\"");
    }
}
