package io.cloudg.cli;

import io.cloudg.CloudGConfig;
import io.cloudg.InventoryResult;
import io.cloudg.cli.log.ConsoleLine;
import io.cloudg.config.ConfigFile;
import io.cloudg.fleet.FleetGovernor;
import io.cloudg.fleet.FleetSettings;
import io.cloudg.fleet.coordinator.FleetCoordinator;
import io.cloudg.fleet.coordinator.FleetProgress;
import io.cloudg.fleet.coordinator.RunStoppedException;
import io.cloudg.fleet.kafka.KafkaClients;
import io.cloudg.resilience.Governor;
import io.cloudg.resilience.config.ConfigException;
import io.cloudg.run.StartupException;
import java.io.PrintStream;
import io.cloudg.resilience.time.TimeSource;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code cloudg map --distributed} and {@code cloudg map --resume RUN_ID}: the fleet's coordinator. Same
 * closing lines and exit codes as an embedded map; Ctrl-C (or SIGTERM) leaves the run resumable and exits
 * 3 with the {@code --resume} line to continue it.
 */
final class DistributedMap {
    private static final Logger PROGRESS = LoggerFactory.getLogger("cloudg.progress");

    private DistributedMap() {
    }

    static int run(MapCommand m, PrintStream out, PrintStream err) {
        if (m.sim) {
            err.println("cloudg: --sim maps in this process; a fleet maps a running `cloudg sim`: set aws.endpoint_url "
                    + "in the configuration the workers share (see docs/fleet.md)");
            return ExitCodes.CANNOT_START;
        }
        if (m.runId != null && m.resume != null) {
            err.println("cloudg: --run-id and --resume both name a run: give one (--run-id resumes a run it finds)");
            return ExitCodes.CANNOT_START;
        }
        Governor governor = null;
        RunMetrics metrics = null;
        try {
            ConfigFile file = m.config != null ? ConfigFile.load(m.config) : ConfigFile.empty();
            CloudGConfig cfg = FleetGovernor.withRedis(overrides(m, CloudGConfig.from(file).toBuilder()).build(), m.redis);
            FleetSettings fleet = FleetSettings.from(file);
            if (m.kafka != null) {
                fleet = fleet.withKafka(fleet.kafka().withBootstrapServers(m.kafka));
            }
            metrics = RunMetrics.open(RunMetrics.settings(file, m.metricsPort), "coordinator");
            governor = FleetGovernor.install(cfg, metrics.metrics());
            FleetCoordinator coordinator = new FleetCoordinator(cfg, fleet, new KafkaClients(fleet.kafka(), System::getenv),
                    governor, TimeSource.system(), progress(!m.noProgress && System.console() != null), metrics.metrics());
            CountDownLatch finished = new CountDownLatch(1);
            Thread hook = new Thread(() -> {
                coordinator.stop();
                try {
                    finished.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "cloudg-coordinator-stop");
            Runtime.getRuntime().addShutdownHook(hook);
            try {
                InventoryResult r = m.resume != null ? coordinator.resume(m.resume)
                        : m.runId != null ? coordinator.runOrResume(m.runId) : coordinator.run();
                MapCommand.report(r, out);
                r.discardSpool();
                return r.complete() ? ExitCodes.OK : ExitCodes.INCOMPLETE;
            } finally {
                finished.countDown();
                try {
                    Runtime.getRuntime().removeShutdownHook(hook);
                } catch (IllegalStateException e) {
                    // the JVM is shutting down: the hook is running
                }
            }
        } catch (ConfigException | StartupException e) {
            err.println("cloudg: " + e.getMessage());
            return ExitCodes.CANNOT_START;
        } catch (RunStoppedException e) {
            err.println("cloudg: " + e.getMessage());
            return ExitCodes.INCOMPLETE;
        } finally {
            if (governor != null) {
                governor.close();
            }
            if (metrics != null) {
                metrics.close();
            }
            ConsoleLine.stderr().clear();
        }
    }

    /**
     * Where the coordinator's progress goes: through the logger ({@code cloudg.progress}, so with a timestamp
     * and in JSON when asked), except that on a terminal the periodic progress line is a status line redrawn
     * in place under the log lines.
     */
    private static Consumer<String> progress(boolean tty) {
        return line -> {
            if (tty && FleetProgress.isProgressLine(line)) {
                ConsoleLine.stderr().status(line);
            } else {
                PROGRESS.info("{}", line);
            }
        };
    }

    /** The command line's map options over the configuration (as the embedded map applies them). */
    private static CloudGConfig.Builder overrides(MapCommand m, CloudGConfig.Builder b) {
        if (!m.providers.isEmpty()) {
            b.providers(m.providers.stream().map(p -> p.toLowerCase(Locale.ROOT)).toArray(String[]::new));
        }
        if (m.org) {
            b.aws(a -> a.withOrg(true));
        }
        if (m.regions != null) {
            String r = m.regions.trim();
            b.aws(a -> a.withRegions(r.equals("all") ? List.of()
                    : Arrays.stream(r.split(",")).map(String::trim).filter(x -> !x.isEmpty()).toList()));
        }
        if (m.out != null) {
            b.outputDir(m.out);
        }
        return b;
    }
}
