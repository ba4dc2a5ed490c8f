package io.cloudg.cli;

import io.cloudg.Governors;
import io.cloudg.metrics.CloudgMetrics;
import io.cloudg.metrics.MetricsHttp;
import io.cloudg.metrics.MetricsSettings;
import io.cloudg.resilience.Governor;
import io.cloudg.resilience.config.RateLimitConfig;
import io.cloudg.resilience.time.TimeSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The metrics of one command's process: off unless {@code metrics.port} ({@code --metrics-port}) or
 * {@code metrics.otlp.url} asks for them; then recorded, served at {@code /metrics} on that port and/or
 * pushed, and closed (a last push) when the command ends.
 */
final class RunMetrics implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger("cloudg.metrics");

    private final CloudgMetrics metrics;
    private final MetricsHttp server;

    private RunMetrics(CloudgMetrics metrics, MetricsHttp server) {
        this.metrics = metrics;
        this.server = server;
    }

    /** The {@code metrics} block of {@code file}, with {@code --metrics-port} over its {@code port} when given. */
    static MetricsSettings settings(io.cloudg.config.ConfigFile file, Integer port) {
        MetricsSettings s = MetricsSettings.from(file);
        if (port == null) {
            return s;
        }
        if (port < 0 || port > 65535) {
            throw io.cloudg.resilience.config.ConfigErrors.mustBe("--metrics-port", "a port from 0 to 65535", port);
        }
        return s.withPort(port);
    }

    /** Opens what {@code settings} ask for, for a process of {@code role}; a port that cannot be bound fails here. */
    static RunMetrics open(MetricsSettings settings, String role) {
        return open(settings, role, false);
    }

    /** As {@link #open(MetricsSettings, String)}; {@code always}: recorded even if neither served nor pushed here. */
    static RunMetrics open(MetricsSettings settings, String role, boolean always) {
        if (!always && settings.port() == 0 && settings.otlpUrl() == null) {
            return new RunMetrics(CloudgMetrics.none(), null);
        }
        CloudgMetrics m = CloudgMetrics.open(settings, role, TimeSource.system());
        MetricsHttp server = null;
        if (settings.port() > 0) {
            try {
                server = MetricsHttp.serve(settings.host(), settings.port(), m);
            } catch (RuntimeException e) {
                m.close();
                throw e;
            }
            LOG.info("metrics at http://{}:{}/metrics", io.cloudg.config.BindAddress.describe(settings.host()), server.port());
        }
        return new RunMetrics(m, server);
    }

    CloudgMetrics metrics() {
        return metrics;
    }

    /**
     * The governor of an embedded run, configured from {@code config} and built the one way every command
     * builds it ({@link io.cloudg.Governors}), with its metrics when they are on.
     */
    Governor governor(RateLimitConfig config) {
        return Governors.create(config, System::getenv, TimeSource.system(), metrics);
    }

    @Override
    public void close() {
        if (server != null) {
            server.close();
        }
        metrics.close();
    }
}
