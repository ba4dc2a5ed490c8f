package io.cloudg.fleet.worker;

import io.cloudg.CloudGConfig;
import io.cloudg.fleet.FleetGovernor;
import io.cloudg.fleet.FleetSettings;
import io.cloudg.fleet.kafka.KafkaClients;
import io.cloudg.replan.Replanners;
import io.cloudg.metrics.CloudgMetrics;
import io.cloudg.metrics.MetricsHttp;
import io.cloudg.metrics.MetricsSettings;
import io.cloudg.resilience.Governor;
import io.cloudg.resilience.time.TimeSource;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A worker process ({@code cloudg worker}): the shared governor, the providers opened on demand, the
 * probes, and a {@link FleetWorker} that runs until SIGTERM. Exit status 0 after a stop, 1 when the
 * worker stopped itself because results could not be delivered (its supervisor restarts it).
 */
public final class WorkerRuntime implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger("cloudg.fleet.worker");

    private final Governor governor;
    private final Replanners providers;
    private final FleetWorker worker;
    private final HealthServer health;
    private final CloudgMetrics metrics;
    private final MetricsHttp metricsPort;

    private WorkerRuntime(CloudGConfig config, FleetSettings fleet, MetricsSettings metricsSettings,
                          Function<String, String> env, TimeSource time) {
        FleetGovernor.requireShared(config);
        new KafkaClients(fleet.kafka(), env).requireReachable(KafkaClients.REACH_TIMEOUT);
        this.metrics = CloudgMetrics.open(metricsSettings, "worker", time);
        this.governor = FleetGovernor.create(config, metrics);
        // the HTTP pools hold what the worker's jobs can have in flight: a listing and its per-item calls each
        this.providers = Replanners.lazy(config, governor, io.cloudg.collect.CallCapacity.of(
                fleet.worker().jobs(governor.config().maxCallsInFlight()), config.aws().itemConcurrency() + 1,
                governor.config()));
        this.worker = new FleetWorker(fleet, new KafkaClients(fleet.kafka(), env), providers, time, metrics);
        HealthServer probes = null;
        try {
            probes = fleet.worker().healthPort() > 0
                    ? new HealthServer(fleet.worker().healthHost(), fleet.worker().healthPort(), worker.health(), metrics)
                    : null;
            // metrics.port too, when set apart from the probe port (where /metrics always is)
            this.metricsPort = metricsSettings.port() > 0 && metricsSettings.port() != fleet.worker().healthPort()
                    ? MetricsHttp.serve(metricsSettings.host(), metricsSettings.port(), metrics) : null;
        } catch (RuntimeException e) {
            if (probes != null) {
                probes.close();
            }
            providers.close();
            governor.close();
            metrics.close();
            throw e;
        }
        this.health = probes;
    }

    public static WorkerRuntime open(CloudGConfig config, FleetSettings fleet, Function<String, String> env, TimeSource time) {
        return open(config, fleet, MetricsSettings.DEFAULTS, env, time);
    }

    /**
     * A worker whose metrics ({@code metrics} block: per-account labels, OTLP push) are served at
     * {@code /metrics} on the probe port.
     */
    public static WorkerRuntime open(CloudGConfig config, FleetSettings fleet, MetricsSettings metrics,
                                     Function<String, String> env, TimeSource time) {
        return new WorkerRuntime(config, fleet, metrics, env, time);
    }

    /** The worker's metrics (served at {@code /metrics} on the probe port). */
    public CloudgMetrics metrics() {
        return metrics;
    }

    /** The port of {@code /healthz}, {@code /readyz} and {@code /metrics}; 0 when not served. */
    public int healthPort() {
        return health == null ? 0 : health.port();
    }

    public FleetWorker worker() {
        return worker;
    }

    /** Runs on this thread until {@link FleetWorker#stop}; returns the exit status (0, or 1 when results were lost). */
    public int run() {
        worker.run();
        return worker.failure() == null ? 0 : 1;
    }

    /** Runs on this thread until SIGTERM (a JVM shutdown hook) or {@link FleetWorker#stop}; returns the exit status. */
    public int runUntilStopped() {
        Thread hook = new Thread(() -> worker.stop(null), "cloudg-worker-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        worker.run();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            LOG.debug("already shutting down");
        }
        return worker.failure() == null ? 0 : 1;
    }

    @Override
    public void close() {
        if (health != null) {
            health.close();
        }
        if (metricsPort != null) {
            metricsPort.close();
        }
        providers.close();
        governor.close();
        metrics.close();
    }
}
