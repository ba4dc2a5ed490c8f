package io.cloudg.cli;

import io.cloudg.preload.ClassPreload;
import io.cloudg.CloudGConfig;
import io.cloudg.cli.log.LogSetup;
import io.cloudg.config.ConfigFile;
import io.cloudg.fleet.FleetSettings;
import io.cloudg.fleet.WorkerSettings;
import io.cloudg.fleet.worker.WorkerRuntime;
import io.cloudg.metrics.MetricsSettings;
import java.nio.file.Path;
import io.cloudg.resilience.time.TimeSource;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code cloudg worker}: a member of the fleet (see docs/fleet.md). */
@Command(name = "worker", mixinStandardHelpOptions = true,
        description = {"Runs a fleet worker: takes map tasks from Kafka, runs them with this process's own credentials "
                + "through the governor shared in Redis, and reports assets, coverage and throttling counters. "
                + "SIGTERM: in-flight tasks finish within fleet.worker.shutdown_grace_seconds or are handed back.",
                "Exit codes: 0 stopped, 1 results could not be delivered to Kafka (restart it: its tasks are "
                        + "redelivered), 2 could not start."})
final class WorkerCommand implements Callable<Integer> {
    @Option(names = "--config", paramLabel = "FILE", description = "cloudg YAML configuration (the coordinator's; "
            + "its fleet block configures Kafka and the worker)")
    Path config;

    @Option(names = "--kafka", paramLabel = "BOOTSTRAP", description = "Kafka bootstrap servers (host:port,...)")
    String kafka;

    @Option(names = "--redis", paramLabel = "URL", description = "the shared governor's Redis (redis:// or rediss://)")
    String redis;

    @Option(names = "--id", paramLabel = "ID", description = "this worker's name (default: host name and pid)")
    String id;

    @Option(names = "--max-in-flight", paramLabel = "N", description = "tasks at once (default: while the governor "
            + "has room, up to --threads tasks)")
    Integer maxInFlight;

    @Option(names = "--threads", paramLabel = "N", description = "collector jobs at once, each on a virtual thread "
            + "(default: as many as the CPU allows, 4 a core at least, up to --max-calls-in-flight)")
    Integer threads;

    @Option(names = "--max-calls-in-flight", paramLabel = "N", description = "the most calls this worker has in "
            + "flight at once, every provider and account together (ratelimit.max_calls_in_flight, default "
            + io.cloudg.resilience.config.RateLimitConfig.DEFAULT_MAX_CALLS_IN_FLIGHT + ")")
    Integer maxCallsInFlight;

    @Option(names = "--health-port", paramLabel = "PORT", description = "/healthz, /readyz and /metrics (default 8081; 0: none)")
    Integer healthPort;

    @Override
    public Integer call() {
        ClassPreload.global().start(); // overlaps the start; jobs wait for it (issue 37)
        ConfigFile file = ConfigLocation.load(config);
        CloudGConfig cfg = CloudGConfig.from(file);
        cfg = cfg.toBuilder().ratelimit(cfg.ratelimit().withRedisUrl(redis)).build();
        if (maxCallsInFlight != null) {
            cfg = cfg.toBuilder().ratelimit(MapCommand.withMaxCallsInFlight(cfg.ratelimit(), maxCallsInFlight)).build();
        }
        FleetSettings fleet = FleetSettings.from(file);
        if (kafka != null) {
            fleet = fleet.withKafka(fleet.kafka().withBootstrapServers(kafka));
        }
        WorkerSettings w = fleet.worker();
        if (id != null) {
            w = w.withId(id);
        }
        if (maxInFlight != null) {
            w = w.withMaxInFlight(maxInFlight);
        }
        if (threads != null) {
            w = w.withThreads(threads);
        }
        if (healthPort != null) {
            w = w.withHealthPort(healthPort);
        }
        MetricsSettings metrics = MetricsSettings.from(file);
        try (WorkerRuntime runtime = WorkerRuntime.open(cfg, fleet.withWorker(w), metrics, System::getenv,
                TimeSource.system());
             StopSignals signals = StopSignals.onStop(() -> runtime.worker().stop(null))) {
            LogSetup.started(); // Kafka, Redis and the health port answered
            return runtime.run() == 0 ? ExitCodes.OK : ExitCodes.INTERNAL_ERROR;
        }
    }
}
