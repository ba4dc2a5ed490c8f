package io.cloudg.cli;

import io.cloudg.preload.ClassPreload;
import io.cloudg.CloudGConfig;
import io.cloudg.map.InventoryMapper;
import io.cloudg.InventoryResult;
import io.cloudg.cli.log.ConsoleLine;
import io.cloudg.cli.log.LogSetup;
import io.cloudg.cli.log.Terminals;
import io.cloudg.collect.CollectionTask;
import io.cloudg.collect.CollectorJob;
import io.cloudg.collect.JobCost;
import io.cloudg.collect.TaskLog;
import io.cloudg.collect.TaskRunner;
import io.cloudg.config.ConfigFile;
import io.cloudg.inventory.CoverageRecord;
import io.cloudg.inventory.CoverageStatus;
import io.cloudg.inventory.RunFiles;
import io.cloudg.inventory.ServiceCoverage;
import io.cloudg.inventory.Summary;
import io.cloudg.metrics.MapMetrics;
import io.cloudg.resilience.Governor;
import io.cloudg.resilience.config.ConfigErrors;
import io.cloudg.resilience.config.RateLimitConfig;
import io.cloudg.config.StartupException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import org.slf4j.event.Level;

/** {@code cloudg map}: maps an estate and writes {@code inventory-map.json}. */
@Command(name = "map", mixinStandardHelpOptions = true,
        description = {"Maps every resource of the configured estate into inventory-map.json.",
                "Exit codes: 0 all coverage SUCCESS, 2 could not start, 3 coverage PARTIAL or FAILED somewhere "
                        + "(or a destination failed: the map is still complete)."})
final class MapCommand implements Callable<Integer> {
    @Option(names = {"-p", "--provider"}, paramLabel = "PROVIDER", description = "aws, azure or gcp (repeatable); "
            + "default: the config's providers (with --sim: every provider the simulator offers)")
    List<String> providers = new ArrayList<>();

    @Option(names = "--org", description = "AWS: discover member accounts through Organizations")
    boolean org;

    @Option(names = "--regions", paramLabel = "all|R1,R2", description = "AWS regions: all (DescribeRegions) or a list")
    String regions;

    @Option(names = "--exclude-accounts", paramLabel = "ID,ID", split = ",", description = "AWS: never map these "
            + "accounts (added to aws.exclude_accounts); listed in the map's summary.skipped_accounts")
    List<String> excludeAccounts = new ArrayList<>();

    @Option(names = "--exclude-regions", paramLabel = "R1,R2", split = ",", description = "AWS: never map these "
            + "regions (added to aws.exclude_regions)")
    List<String> excludeRegions = new ArrayList<>();

    @Option(names = "--config", paramLabel = "FILE", description = "cloudg YAML configuration")
    Path config;

    @Option(names = "--out", paramLabel = "DIR", description = "where inventory-map.json goes (default: .)")
    Path out;

    @Option(names = "--job-concurrency", paramLabel = "N", description = "collector jobs at once, each on a virtual "
            + "thread (job_concurrency; default: as many as --max-calls-in-flight)")
    Integer jobConcurrency;

    /** --job-concurrency's old name, still taken with a warning. */
    @Option(names = "--workers", paramLabel = "N", hidden = true)
    Integer workers;

    @Option(names = "--max-calls-in-flight", paramLabel = "N", description = "the most calls this process has in "
            + "flight at once, every provider and account together (ratelimit.max_calls_in_flight, default "
            + RateLimitConfig.DEFAULT_MAX_CALLS_IN_FLIGHT + ")")
    Integer maxCallsInFlight;

    @Option(names = "--sim", description = "start a cloud-sim estate in this process and map it (no credentials needed)")
    boolean sim;

    @Option(names = "--sim-estate", paramLabel = "FILE", description = "with --sim: the estate YAML (default: the demo estate)")
    Path simEstate;

    @Option(names = "--sim-faults", paramLabel = "FILE", description = "with --sim: fault rules YAML (throttle, transient, ...)")
    Path simFaults;

    @Option(names = "--no-progress", description = "no progress: neither the live line (on a terminal) nor the "
            + "progress log lines (every 10 s otherwise)")
    boolean noProgress;

    @Option(names = "--distributed", description = "map as a fleet: tasks to `cloudg worker`s over Kafka (docs/fleet.md)")
    boolean distributed;

    @Option(names = "--kafka", paramLabel = "BOOTSTRAP", description = "with --distributed: Kafka bootstrap servers")
    String kafka;

    @Option(names = "--redis", paramLabel = "URL", description = "keep the governor's state in this Redis (redis:// or "
            + "rediss://): maps of one estate at once share its quotas; required with --distributed")
    String redis;

    @Option(names = "--resume", paramLabel = "RUN_ID", description = "continue the distributed run RUN_ID whose "
            + "coordinator stopped")
    String resume;

    @Mixin
    OutputOptions output = new OutputOptions();

    @Option(names = "--run-id", paramLabel = "RUN_ID", description = "with --distributed: the run's id; if the run is "
            + "already in the journal it is resumed (a scheduled sweep's retried pod continues its run)")
    String runId;

    @Option(names = "--metrics-port", paramLabel = "N", description = "serve /metrics (Prometheus) on port N while the "
            + "map runs (default: metrics.port; 0: off)")
    Integer metricsPort;

    @Override
    public Integer call() {
        if (!distributed && resume == null && runId == null) {
            ClassPreload.global().start(); // overlaps the start; its jobs wait for it (issue 37); a coordinator runs none
        }
        try {
            return map();
        } catch (RunFiles.NotWrittenException e) {
            LogSetup.notice(System.err, Level.ERROR, "the map finished but could not be written: " + e.getMessage(), null);
            return ExitCodes.NOT_WRITTEN;
        }
    }

    private int map() {
        PrintStream err = System.err;
        if (distributed || resume != null || runId != null) {
            if (output.retryFailed != null) {
                throw new StartupException("--retry-failed re-collects in this process; it cannot be combined with "
                        + "--distributed, --resume or --run-id");
            }
            return DistributedMap.run(this, System.out, err);
        }
        ConfigFile file = ConfigLocation.load(config);
        CloudGConfig.Builder b = output.apply(overrides(CloudGConfig.from(file).toBuilder()));
        RateLimitConfig ratelimit = b.build().ratelimit().withRedisUrl(redis);
        try (RunMetrics metrics = RunMetrics.open(RunMetrics.settings(file, metricsPort), "map")) {
            // the governor first: a Redis that cannot be used ends the start before a simulator starts for nothing
            Governor governor = metrics.governor(ratelimit);
            Thread saveOnStop = new Thread(governor::close, "cloudg-governor-save");
            Runtime.getRuntime().addShutdownHook(saveOnStop);
            InventoryResult result;
            try (SimSession session = sim ? SimSession.start(simEstate, simFaults) : null;
                 Progress progress = new Progress(governor, ConsoleLine.stderr(), Progress.Mode.of(noProgress,
                         Terminals.stderrIsTerminal(), LogSetup.json()))) {
                if (session != null) {
                    session.pointAt(b);
                }
                CloudGConfig cfg = b.build().toBuilder().ratelimit(ratelimit).build();
                result = new InventoryMapper(cfg, governor).retryFailed(output.retryFailed).onTaskDone(startedOnPlan(progress))
                        .metrics(MapMetrics.of(metrics.metrics())).mapInventory();
            } finally {
                removeHook(saveOnStop);
                governor.close();
            }
            report(result, System.out);
            result.discardSpool();
            return OutputOptions.exitCode(result);
        }
    }

    /**
     * {@code l}, and the map counts as started once its tasks are planned: every provider discovered, every
     * endpoint answered. The log lines held until then are written ({@link LogSetup#started()}). Each task's end
     * is logged at DEBUG ({@link TaskLog#ended}: the progress line tells how the map goes, and a line per task of a
     * map of 17,000 would drown the warnings); its calls are not counted per task in a map of one process.
     */
    static TaskRunner.Listener startedOnPlan(TaskRunner.Listener l) {
        return new TaskRunner.Listener() {
            @Override
            public void planned(List<CollectionTask> tasks, JobCost cost) {
                LogSetup.started();
                l.planned(tasks, cost);
            }

            @Override
            public void taskDone(CollectionTask task, CoverageRecord record, int done, int total) {
                TaskLog.ended(task, record.services(), -1, -1, Level.DEBUG);
                l.taskDone(task, record, done, total);
            }

            @Override
            public void jobStarted(CollectionTask task, CollectorJob job) {
                l.jobStarted(task, job);
            }

            @Override
            public void jobDone(CollectionTask task, CollectorJob job, ServiceCoverage entry) {
                l.jobDone(task, job, entry);
            }
        };
    }

    /** The map options of the command line over the configuration (embedded and distributed alike). */
    CloudGConfig.Builder overrides(CloudGConfig.Builder b) {
        if (!providers.isEmpty()) {
            b.providers(providers.stream().map(p -> p.toLowerCase(Locale.ROOT)).toArray(String[]::new));
        }
        if (org) {
            b.aws(a -> a.withOrg(true));
        }
        if (regions != null) {
            String r = regions.trim();
            b.aws(a -> a.withRegions(r.equals("all") ? List.of()
                    : Arrays.stream(r.split(",")).map(String::trim).filter(x -> !x.isEmpty()).toList()));
        }
        if (!excludeAccounts.isEmpty() || !excludeRegions.isEmpty()) {
            b.aws(a -> a.withExclusions(union(a.excludeAccounts(), excludeAccounts), union(a.excludeRegions(), excludeRegions)));
        }
        if (out != null) {
            b.outputDir(out);
        }
        if (workers != null) {
            if (jobConcurrency != null) {
                throw ConfigErrors.invalid("--workers",
                        "is the old name of --job-concurrency, which is given too: give --job-concurrency only");
            }
            ConfigErrors.renamedKey("--workers", "--job-concurrency");
            b.jobConcurrency(workers);
        }
        if (jobConcurrency != null) {
            b.jobConcurrency(jobConcurrency);
        }
        if (maxCallsInFlight != null) {
            b.ratelimit(withMaxCallsInFlight(b.build().ratelimit(), maxCallsInFlight));
        }
        return b;
    }

    /** {@code ratelimit} with the ceiling {@code --max-calls-in-flight} gives (refused in one line naming the flag). */
    static RateLimitConfig withMaxCallsInFlight(RateLimitConfig ratelimit, int n) {
        if (n < 1) {
            throw io.cloudg.resilience.config.ConfigErrors.mustBe("--max-calls-in-flight", "an integer >= 1", n);
        }
        return ratelimit.withMaxCallsInFlight(n);
    }

    private static List<String> union(List<String> configured, List<String> flag) {
        java.util.LinkedHashSet<String> all = new java.util.LinkedHashSet<>(configured);
        flag.stream().map(String::trim).filter(x -> !x.isEmpty()).forEach(all::add);
        return List.copyOf(all);
    }

    /** {@code aws: 412 assets in 3 accounts x 2 regions, 80 coverage entries SUCCESS}: what the provider's numbers count. */
    static String providerLine(String provider, Summary.ProviderSummary p) {
        String unit = switch (provider) {
            case "azure" -> "subscription";
            case "gcp" -> "project";
            default -> "account";
        };
        StringBuilder b = new StringBuilder(provider).append(": ");
        if (p.assets() != null) {
            b.append(p.assets()).append(" assets in ");
        }
        b.append(p.accounts()).append(' ').append(unit).append(p.accounts() == 1 ? "" : "s");
        if (p.regions() > 0) {
            b.append(" x ").append(p.regions()).append(p.regions() == 1 ? " region" : " regions");
        }
        b.append(", coverage entries: ").append(p.services().get(CoverageStatus.SUCCESS)).append(" SUCCESS");
        int partial = p.services().get(CoverageStatus.PARTIAL);
        int failed = p.services().get(CoverageStatus.FAILED);
        if (partial + failed > 0) {
            b.append(", ").append(partial).append(" PARTIAL, ").append(failed).append(" FAILED");
        }
        return b.toString();
    }

    static void removeHook(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // the JVM is shutting down: the hook is running
        }
    }

    /**
     * The closing lines: a line per provider (its accounts, regions, assets and coverage entries), the totals,
     * every entry that is not SUCCESS (the first 20), and where the map is; with {@code --log-format json}, one
     * log event on standard error instead ({@link SummaryEvent}), and nothing on {@code out}.
     */
    static void report(InventoryResult r, PrintStream out) {
        if (LogSetup.json()) {
            SummaryEvent.log(r);
            return;
        }
        Summary s = r.summary();
        s.providers().forEach((provider, p) -> out.println(providerLine(provider, p)));
        out.println(SummaryEvent.totals(s));
        int shown = 0;
        for (CoverageRecord rec : r.coverage()) {
            for (ServiceCoverage c : rec.services()) {
                if (c.status() != CoverageStatus.SUCCESS) {
                    if (shown++ < SummaryEvent.SHOWN) {
                        out.printf("  %s %s/%s/%s %s: %s%n", c.status(), rec.provider(), rec.accountId(), rec.region(),
                                c.service(), c.error());
                    }
                }
            }
        }
        if (shown > SummaryEvent.SHOWN) {
            out.printf("  ... and %d more (see the coverage in the map)%n", shown - SummaryEvent.SHOWN);
        }
        if (!s.skippedAccounts().isEmpty()) {
            java.util.Map<String, Integer> why = new java.util.TreeMap<>();
            s.skippedAccounts().forEach(a -> why.merge(a.reason(), 1, Integer::sum));
            out.println("Skipped " + s.skippedAccounts().size() + " account(s) (" + why.entrySet().stream()
                    .map(e -> e.getValue() + " " + e.getKey()).collect(java.util.stream.Collectors.joining(", "))
                    + "); see summary.skipped_accounts in the map");
        }
        if (r.throttling() != null) {
            out.println("Throttling: " + r.throttling().messages().size() + " scope(s) pushed back; see \"throttling\" in the map");
        }
        OutputOptions.reportDestinations(r, out);
        if (r.writeProblem() != null) {
            out.println("NOT written as asked: " + r.writeProblem());
        }
        out.println("Map: " + r.mapFile().toAbsolutePath());
    }
}
