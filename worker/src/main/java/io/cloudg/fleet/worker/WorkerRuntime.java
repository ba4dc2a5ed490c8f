package io.cloudg.fleet.worker;

import io.cloudg.CloudGConfig;
import io.cloudg.fleet.FleetGovernor;
import io.cloudg.fleet.FleetSettings;
import io.cloudg.fleet.kafka.KafkaClients;
import io.cloudg.fleet.provider.FleetProviders;
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
    private final FleetProviders providers;
    private final FleetWorker worker;
    private final HealthServer health;

    private WorkerRuntime(CloudGConfig config, FleetSettings fleet, Function<String, String> env, TimeSource time) {
        FleetGovernor.requireShared(config);
        new KafkaClients(fleet.kafka(), env).requireReachable(KafkaClients.REACH_TIMEOUT);
        this.governor = FleetGovernor.install(config);
        this.providers = FleetProviders.lazy(config, governor,
                Math.max(64, fleet.worker().threads() * (config.aws().itemConcurrency() + 1)));
        this.worker = new FleetWorker(fleet, new KafkaClients(fleet.kafka(), env), providers, time);
        try {
            this.health = fleet.worker().healthPort() > 0 ? new HealthServer(fleet.worker().healthPort(), worker.health()) : null;
        } catch (RuntimeException e) {
            providers.close();
            governor.close();
            throw e;
        }
    }

    public static WorkerRuntime open(CloudGConfig config, FleetSettings fleet, Function<String, String> env, TimeSource time) {
        return new WorkerRuntime(config, fleet, env, time);
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
        providers.close();
        governor.close();
    }
}
