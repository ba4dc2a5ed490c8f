package io.cloudg.cli;

import io.cloudg.CloudGConfig;
import io.cloudg.InventoryResult;
import io.cloudg.cli.log.ConsoleLine;
import io.cloudg.cli.log.LogSetup;
import io.cloudg.cli.log.Terminals;
import io.cloudg.config.ConfigFile;
import io.cloudg.fleet.FleetGovernor;
import io.cloudg.fleet.FleetSettings;
import io.cloudg.fleet.coordinator.FleetCoordinator;
import io.cloudg.fleet.coordinator.FleetProgress;
import io.cloudg.fleet.coordinator.RunStoppedException;
import io.cloudg.fleet.kafka.KafkaClients;
import io.cloudg.resilience.Governor;
import io.cloudg.config.StartupException;
import io.cloudg.resilience.time.TimeSource;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * {@code cloudg map --distributed}, {@code cloudg map --resume RUN_ID} and {@code cloudg map --run-id RUN_ID}
 * (a named run, resumed when its journal exists): the fleet's coordinator. Same closing lines and exit codes
 * as an embedded map; Ctrl-C (or SIGTERM) leaves the run resumable and exits 3 with the {@code --resume} line
 * to continue it.
 */
final class DistributedMap {
    private static final Logger PROGRESS = LoggerFactory.getLogger("cloudg.progress");

    private DistributedMap() {
    }

    static int run(MapCommand m, PrintStream out, PrintStream err) {
        if (m.sim) {
            throw new StartupException("--sim maps in this process; a fleet maps a running `cloudg sim`: set "
                    + "aws.endpoint_url in the configuration the workers share (see docs/fleet.md)");
        }
        if (m.runId != null && m.resume != null) {
            throw new StartupException("--run-id and --resume both name a run: give one (--run-id resumes a run it finds)");
        }
        ConfigFile file = ConfigLocation.load(m.config);
        // the output options too (--postgres, --keep): the coordinator writes the run as an embedded map does
        CloudGConfig cfg = m.output.apply(m.overrides(CloudGConfig.from(file).toBuilder())).build();
        cfg = cfg.toBuilder().ratelimit(cfg.ratelimit().withRedisUrl(m.redis)).build();
        FleetSettings fleet = FleetSettings.from(file);
        if (m.kafka != null) {
            fleet = fleet.withKafka(fleet.kafka().withBootstrapServers(m.kafka));
        }
        FleetGovernor.requireShared(cfg);
        KafkaClients kafka = new KafkaClients(fleet.kafka(), System::getenv);
        kafka.requireReachable(KafkaClients.REACH_TIMEOUT);
        try (RunMetrics metrics = RunMetrics.open(RunMetrics.settings(file, m.metricsPort), "coordinator");
             Governor governor = FleetGovernor.create(cfg, metrics.metrics())) {
            FleetCoordinator coordinator = new FleetCoordinator(cfg, fleet, kafka, governor, TimeSource.system(),
                    progress(Progress.Mode.of(m.noProgress, Terminals.stderrIsTerminal(), LogSetup.json())),
                    metrics.metrics());
            try (StopSignals signals = StopSignals.onStop(coordinator::stop)) {
                InventoryResult r = m.resume != null ? coordinator.resume(m.resume)
                        : m.runId != null ? coordinator.runOrResume(m.runId) : coordinator.run();
                MapCommand.report(r, out);
                r.discardSpool();
                return OutputOptions.exitCode(r);
            } catch (RunStoppedException e) {
                LogSetup.notice(err, Level.WARN, "run " + e.runId() + " stopped before it finished; continue it with: "
                        + resumeCommand(m, e.runId()), null);
                return ExitCodes.INCOMPLETE;
            } finally {
                ConsoleLine.stderr().clear();
            }
        }
    }

    /**
     * Where the coordinator's progress goes: through the logger ({@code cloudg.progress}, so with a timestamp
     * and in JSON when asked), except that the periodic progress line is a status line redrawn in place under
     * the log lines on a terminal ({@link Progress.Mode#LIVE}), and is not shown with {@code --no-progress}
     * (the coordinator's other notices are).
     */
    static Consumer<String> progress(Progress.Mode mode) {
        return line -> {
            LogSetup.started(); // the coordinator reports: the run is going
            boolean progressLine = FleetProgress.isProgressLine(line);
            if (progressLine && mode == Progress.Mode.OFF) {
                return;
            }
            if (progressLine && mode == Progress.Mode.LIVE) {
                ConsoleLine.stderr().status(line);
            } else {
                PROGRESS.info("{}", line);
            }
        };
    }

    /** The command that continues run {@code runId}: this one's flags that locate the estate, the fleet and the governor. */
    static String resumeCommand(MapCommand m, String runId) {
        List<String> parts = new ArrayList<>(List.of("cloudg", "map", "--distributed", "--resume", runId));
        if (m.config != null) {
            parts.addAll(List.of("--config", m.config.toString()));
        }
        if (m.kafka != null) {
            parts.addAll(List.of("--kafka", m.kafka));
        }
        if (m.redis != null) {
            parts.addAll(List.of("--redis", m.redis));
        }
        if (m.out != null) {
            parts.addAll(List.of("--out", m.out.toString()));
        }
        if (m.output.postgres != null) {
            // never the password: the continuation reads it from PGPASSWORD or the configuration's password_env
            parts.addAll(List.of("--postgres", m.output.postgres.replaceFirst("^([a-z]+:(?://)?[^:/@]*):[^@/]*@", "$1@")));
        }
        if (m.output.keep != null) {
            parts.addAll(List.of("--keep", m.output.keep.toString()));
        }
        if (!m.providers.isEmpty()) {
            m.providers.forEach(p -> parts.addAll(List.of("-p", p)));
        }
        return String.join(" ", parts.stream().map(DistributedMap::quoted).toList());
    }

    private static String quoted(String arg) {
        return arg.matches("[A-Za-z0-9._:/@=,+-]+") ? arg : "'" + arg.replace("'", "'\\''") + "'";
    }
}
