package io.cloudg.metrics;

import io.cloudg.config.BindAddress;
import io.cloudg.config.ConfigFile;
import io.cloudg.resilience.config.ConfigErrors;
import io.cloudg.resilience.config.ConfigNode;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Set;

/**
 * The {@code metrics} block of {@code cloudg.yaml}. Workers serve {@code GET /metrics} on their probe port
 * and the MCP HTTP server on its own; the coordinator and embedded maps serve it on {@code port} (the
 * CLI's {@code --metrics-port}), off by default. Every process can also push to an OTLP endpoint, for runs
 * too short to be scraped.
 *
 * <pre>{@code
 * metrics:
 *   port: 9464                       # coordinator and embedded map; 0: not served (the default)
 *   host: 127.0.0.1                  # where that port listens; default: every interface
 *   per_account: false               # true: account and region labels on the governor's metrics
 *   state_refresh_seconds: 15        # how old the governor's state (slowed leaves, breakers) may be
 *   otlp:
 *     url: http://otel-collector:4318/v1/metrics
 *     step_seconds: 10
 *     headers: {x-tenant: platform}
 * }</pre>
 *
 * @param port where the coordinator and embedded maps serve {@code /metrics}; 0: nowhere
 * @param perAccount whether the governor's metrics carry {@code account} and {@code region} labels (a
 *        series per account and region: only for estates small enough to afford it)
 * @param stateRefresh how long the governor state read for gauges is reused (a shared store's state is
 *        read by a scan of Redis, not on every scrape)
 * @param otlpUrl an OTLP/HTTP metrics endpoint to push to; null: no push
 * @param otlpStep how often to push
 * @param otlpHeaders headers sent with each push (an authorization header's value belongs in the
 *        environment: see {@code otlp.headers_env})
 * @param host the address {@code port} listens on; null: every interface (the default)
 */
public record MetricsSettings(int port, boolean perAccount, Duration stateRefresh, URI otlpUrl, Duration otlpStep,
                              Map<String, String> otlpHeaders, String host) {
    static final Set<String> KEYS = Set.of("port", "host", "per_account", "state_refresh_seconds", "otlp");
    static final Set<String> OTLP_KEYS = Set.of("url", "step_seconds", "headers", "headers_env");

    public static final MetricsSettings DEFAULTS = new MetricsSettings(0, false, Duration.ofSeconds(15), null,
            Duration.ofSeconds(10), Map.of(), null);

    public MetricsSettings {
        if (port < 0 || port > 65535) {
            throw ConfigErrors.mustBe("metrics.port", "a port from 0 to 65535", port);
        }
        if (stateRefresh == null || stateRefresh.isNegative()) {
            throw ConfigErrors.mustBe("metrics.state_refresh_seconds", "a number >= 0", stateRefresh);
        }
        if (otlpStep == null || otlpStep.toMillis() < 1000) {
            throw ConfigErrors.mustBe("metrics.otlp.step_seconds", "a number >= 1",
                    otlpStep == null ? null : otlpStep.toMillis() / 1000.0);
        }
        if (otlpUrl != null && !("http".equals(otlpUrl.getScheme()) || "https".equals(otlpUrl.getScheme()))) {
            throw ConfigErrors.mustBe("metrics.otlp.url", "an http:// or https:// URL", otlpUrl);
        }
        otlpHeaders = Map.copyOf(otlpHeaders);
        BindAddress.check("metrics.host", host);
    }

    /** Settings served on every interface (no {@code host}). */
    public MetricsSettings(int port, boolean perAccount, Duration stateRefresh, URI otlpUrl, Duration otlpStep,
                           Map<String, String> otlpHeaders) {
        this(port, perAccount, stateRefresh, otlpUrl, otlpStep, otlpHeaders, null);
    }

    /** Reads the {@code metrics} section of {@code file} (absent: the defaults). */
    public static MetricsSettings from(ConfigFile file) {
        return from(file, System::getenv);
    }

    /** As {@link #from(ConfigFile)}, reading {@code otlp.headers_env} from {@code env}. */
    public static MetricsSettings from(ConfigFile file, java.util.function.Function<String, String> env) {
        return load(file.section("metrics"), env);
    }

    static MetricsSettings load(ConfigNode y, java.util.function.Function<String, String> env) {
        y.warnUnknown(KEYS);
        MetricsSettings d = DEFAULTS;
        ConfigNode otlp = y.section("otlp");
        otlp.warnUnknown(OTLP_KEYS);
        Map<String, String> headers = new java.util.TreeMap<>(otlp.stringMap("headers"));
        // headers_env: {authorization: OTLP_AUTH} -- the value of a header read from a variable
        otlp.stringMap("headers_env").forEach((header, variable) -> {
            String v = env.apply(variable);
            if (v == null || v.isEmpty()) {
                throw ConfigErrors.mustBe(otlp.key("headers_env") + "." + header,
                        "the name of a set environment variable", variable + " (unset)");
            }
            headers.put(header, v);
        });
        double step = otlp.seconds("step_seconds", d.otlpStep.toMillis() / 1000.0, false);
        return new MetricsSettings(y.integer("port", d.port, 0), y.bool("per_account", d.perAccount),
                Duration.ofMillis(Math.round(y.seconds("state_refresh_seconds", d.stateRefresh.toMillis() / 1000.0, true) * 1000)),
                otlp.uri("url", "http://otel-collector:4318/v1/metrics"), Duration.ofMillis(Math.round(step * 1000)), headers,
                y.string("host", d.host));
    }

    /** These settings with {@code /metrics} served on {@code newPort} (the CLI's {@code --metrics-port}). */
    public MetricsSettings withPort(int newPort) {
        return new MetricsSettings(newPort, perAccount, stateRefresh, otlpUrl, otlpStep, otlpHeaders, host);
    }

    /** These settings with {@code port} listening on {@code newHost} (null: every interface). */
    public MetricsSettings withHost(String newHost) {
        return new MetricsSettings(port, perAccount, stateRefresh, otlpUrl, otlpStep, otlpHeaders, newHost);
    }

    public MetricsSettings withPerAccount(boolean b) {
        return new MetricsSettings(port, b, stateRefresh, otlpUrl, otlpStep, otlpHeaders, host);
    }

    public MetricsSettings withStateRefresh(Duration d) {
        return new MetricsSettings(port, perAccount, d, otlpUrl, otlpStep, otlpHeaders, host);
    }

    public MetricsSettings withOtlp(URI url, Duration step) {
        return new MetricsSettings(port, perAccount, stateRefresh, url, step, otlpHeaders, host);
    }
}
