package io.cloudg.cli;

import io.cloudg.CloudGConfig;
import io.cloudg.InventoryMapper;
import io.cloudg.InventoryResult;
import io.cloudg.cli.log.ConsoleLine;
import io.cloudg.config.ConfigFile;
import io.cloudg.inventory.CoverageRecord;
import io.cloudg.inventory.CoverageStatus;
import io.cloudg.inventory.ServiceCoverage;
import io.cloudg.inventory.Summary;
import io.cloudg.metrics.MapMetrics;
import io.cloudg.resilience.Governor;
import io.cloudg.resilience.config.ConfigException;
import io.cloudg.run.StartupException;
import io.cloudg.sim.CloudSim;
import io.cloudg.sim.SimOptions;
import io.cloudg.sim.config.EstateSpec;
import io.cloudg.sim.config.FaultSpec;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code cloudg map}: maps an estate and writes {@code inventory-map.json}. */
@Command(name = "map", mixinStandardHelpOptions = true,
        description = {"Maps every resource of the configured estate into inventory-map.json.",
                "Exit codes: 0 all coverage SUCCESS, 2 could not start, 3 coverage PARTIAL or FAILED somewhere."})
final class MapCommand implements Callable<Integer> {
    @Option(names = {"-p", "--provider"}, paramLabel = "PROVIDER", description = "aws, azure or gcp (repeatable); "
            + "default: the config's providers (with --sim: every provider the simulator offers)")
    List<String> providers = new ArrayList<>();

    @Option(names = "--org", description = "AWS: discover member accounts through Organizations")
    boolean org;

    @Option(names = "--regions", paramLabel = "all|R1,R2", description = "AWS regions: all (DescribeRegions) or a list")
    String regions;

    @Option(names = "--config", paramLabel = "FILE", description = "cloudg YAML configuration")
    Path config;

    @Option(names = "--out", paramLabel = "DIR", description = "where inventory-map.json goes (default: .)")
    Path out;

    @Option(names = "--workers", paramLabel = "N", description = "collection tasks at once (default 16)")
    Integer workers;

    @Option(names = "--sim", description = "start a cloud-sim estate in this process and map it (no credentials needed)")
    boolean sim;

    @Option(names = "--sim-estate", paramLabel = "FILE", description = "with --sim: the estate YAML (default: the demo estate)")
    Path simEstate;

    @Option(names = "--sim-faults", paramLabel = "FILE", description = "with --sim: fault rules YAML (throttle, transient, ...)")
    Path simFaults;

    @Option(names = "--no-progress", description = "no live progress line")
    boolean noProgress;

    @Option(names = "--distributed", description = "map as a fleet: tasks to `cloudg worker`s over Kafka (docs/fleet.md)")
    boolean distributed;

    @Option(names = "--kafka", paramLabel = "BOOTSTRAP", description = "with --distributed: Kafka bootstrap servers")
    String kafka;

    @Option(names = "--redis", paramLabel = "URL", description = "with --distributed: the shared governor's Redis "
            + "(redis:// or rediss://)")
    String redis;

    @Option(names = "--resume", paramLabel = "RUN_ID", description = "continue the distributed run RUN_ID whose "
            + "coordinator stopped")
    String resume;

    @Option(names = "--run-id", paramLabel = "RUN_ID", description = "with --distributed: the run's id; if the run is "
            + "already in the journal it is resumed (a scheduled sweep's retried pod continues its run)")
    String runId;

    @Option(names = "--metrics-port", paramLabel = "N", description = "serve /metrics (Prometheus) on port N while the "
            + "map runs (default: metrics.port; 0: off)")
    Integer metricsPort;

    @Override
    public Integer call() {
        PrintStream err = System.err;
        if (distributed || resume != null || runId != null) {
            return DistributedMap.run(this, System.out, err);
        }
        CloudSim running = null;
        try {
            ConfigFile file = config != null ? ConfigFile.load(config) : ConfigFile.empty();
            CloudGConfig.Builder b = config != null ? CloudGConfig.from(file).toBuilder() : CloudGConfig.builder();
            if (sim) {
                SimOptions.Builder so = SimOptions.builder().port(0)
                        .estate(simEstate != null ? EstateSpec.load(simEstate) : EstateSpec.defaultEstate());
                if (simFaults != null) {
                    so.faults(FaultSpec.load(simFaults));
                }
                running = CloudSim.start(so.build());
                CloudSim s = running;
                b.aws(a -> a.withEndpoint(s.awsEndpoint()).withOrg(true).withCredentials(
                        s.managementCredentials().accessKeyId(), s.managementCredentials().secretAccessKey()));
                b.azure(a -> a.withEndpoint(s.azureEndpoint()).withTenant(s.azureTenantId()));
                b.gcp(g -> g.withEndpoint(s.gcpTarget()).withOrganization(s.estate().gcp().organization()));
                LoggerFactory.getLogger("cloudg.sim").info("cloud-sim started at {}", s.awsEndpoint());
            }
            if (!providers.isEmpty()) {
                b.providers(providers.stream().map(p -> p.toLowerCase(Locale.ROOT)).toArray(String[]::new));
            } else if (sim && b.build().providers().isEmpty()) {
                b.providers(SimProviders.AVAILABLE.toArray(String[]::new));
            }
            if (org) {
                b.aws(a -> a.withOrg(true));
            }
            if (regions != null) {
                String r = regions.trim();
                b.aws(a -> a.withRegions(r.equals("all") ? List.of()
                        : Arrays.stream(r.split(",")).map(String::trim).filter(x -> !x.isEmpty()).toList()));
            }
            if (out != null) {
                b.outputDir(out);
            }
            if (workers != null) {
                b.workers(workers);
            }
            CloudGConfig cfg = b.build();
            try (RunMetrics metrics = RunMetrics.open(RunMetrics.settings(file, metricsPort), "map")) {
                Governor governor = metrics.governor(cfg.ratelimit());
                InventoryResult result;
                try (Progress progress = new Progress(governor, ConsoleLine.stderr(), !noProgress && System.console() != null)) {
                    result = new InventoryMapper(cfg, governor).onTaskDone(progress)
                            .metrics(MapMetrics.of(metrics.metrics())).mapInventory();
                }
                report(result, System.out);
                result.discardSpool();
                return result.complete() ? ExitCodes.OK : ExitCodes.INCOMPLETE;
            }
        } catch (ConfigException | StartupException | io.cloudg.sim.config.SpecException e) {
            err.println("cloudg: " + e.getMessage());
            return ExitCodes.CANNOT_START;
        } catch (java.io.UncheckedIOException e) {
            err.println("cloudg: " + e.getMessage() + (e.getCause() == null ? "" : " (" + e.getCause().getMessage() + ")"));
            return ExitCodes.CANNOT_START;
        } catch (RuntimeException e) {
            if (e.getClass().getName().startsWith("io.cloudg.sim.config")) {
                err.println("cloudg: " + e.getMessage());
                return ExitCodes.CANNOT_START;
            }
            throw e;
        } finally {
            if (running != null) {
                running.close();
            }
        }
    }

    /** The closing lines: totals, where it is, and every entry that is not SUCCESS. */
    static void report(InventoryResult r, PrintStream out) {
        Summary s = r.summary();
        out.printf(Locale.ROOT, "Mapped %d assets in %d account(s) x %d region(s) in %.1fs: %d SUCCESS, %d PARTIAL, %d FAILED%n",
                s.assets(), s.accounts(), s.regions(), s.durationSeconds(), s.services().get(CoverageStatus.SUCCESS),
                s.services().get(CoverageStatus.PARTIAL), s.services().get(CoverageStatus.FAILED));
        int shown = 0;
        for (CoverageRecord rec : r.coverage()) {
            for (ServiceCoverage c : rec.services()) {
                if (c.status() != CoverageStatus.SUCCESS) {
                    if (shown++ < 20) {
                        out.printf("  %s %s/%s/%s %s: %s%n", c.status(), rec.provider(), rec.accountId(), rec.region(),
                                c.service(), c.error());
                    }
                }
            }
        }
        if (shown > 20) {
            out.printf("  ... and %d more (see the coverage in the map)%n", shown - 20);
        }
        if (r.throttling() != null) {
            out.println("Throttling: " + r.throttling().messages().size() + " scope(s) pushed back; see \"throttling\" in the map");
        }
        out.println("Map: " + r.mapFile().toAbsolutePath());
    }
}
