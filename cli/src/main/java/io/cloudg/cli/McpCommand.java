package io.cloudg.cli;

import io.cloudg.CloudGConfig;
import io.cloudg.config.ConfigFile;
import io.cloudg.mcp.config.McpSettings;
import io.cloudg.mcp.CloudgMcp;
import io.cloudg.metrics.MetricsSettings;
import io.cloudg.resilience.config.ConfigException;
import io.cloudg.run.StartupException;
import io.cloudg.sim.CloudSim;
import io.cloudg.sim.SimOptions;
import io.cloudg.sim.config.EstateSpec;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code cloudg mcp}: the MCP server for AI agents, over stdio (default: one session, as the configured
 * {@code mcp.stdio_principal}) or streamable HTTP ({@code --http}: bearer tokens from {@code mcp.principals}).
 * See {@code docs/mcp.md}.
 */
@Command(name = "mcp", mixinStandardHelpOptions = true,
        description = {"Serves cloudg's MCP tools (map_inventory, collect_assets, run_scanners, run_pipeline, "
                + "rate_limit_status, datasets) to AI agents, with guard rails on every live call.",
                "stdio by default (stdout is the protocol; logs go to stderr); --http for streamable HTTP.",
                "Exit codes: 0 stopped, 2 could not start (configuration, port)."})
final class McpCommand implements Callable<Integer> {
    @Option(names = "--config", paramLabel = "FILE", description = "cloudg YAML configuration (the mcp block: principals, tokens)")
    Path config;

    @Option(names = "--http", description = "serve streamable HTTP at mcp.http.host:port + path instead of stdio")
    boolean http;

    @Option(names = "--host", paramLabel = "HOST", description = "with --http: bind address (default: mcp.http.host, 127.0.0.1)")
    String host;

    @Option(names = "--port", paramLabel = "N", description = "with --http: port (default: mcp.http.port, 8765; 0 = any free port)")
    Integer port;

    @Option(names = "--dataset-dir", paramLabel = "DIR", description = "where datasets are saved (default: mcp.dataset_dir)")
    Path datasetDir;

    @Option(names = {"-p", "--provider"}, paramLabel = "PROVIDER", description = "aws, azure or gcp (repeatable); "
            + "default: the config's providers (with --sim and none configured: every provider the simulator offers)")
    List<String> providers = new ArrayList<>();

    @Option(names = "--sim", description = "start a cloud-sim estate in this process and serve it (no credentials needed)")
    boolean sim;

    @Override
    public Integer call() {
        PrintStream err = System.err;
        CloudSim running = null;
        RunMetrics runMetrics = null;
        try {
            ConfigFile file = config != null ? ConfigFile.load(config) : ConfigFile.empty();
            CloudGConfig loaded = CloudGConfig.from(file);
            McpSettings mcpSettings = McpSettings.from(file);
            CloudGConfig.Builder b = loaded.toBuilder();
            if (sim) {
                running = CloudSim.start(SimOptions.builder().port(0).estate(EstateSpec.defaultEstate()).build());
                CloudSim s = running;
                b.aws(a -> a.withEndpoint(s.awsEndpoint()).withOrg(true).withCredentials(
                        s.managementCredentials().accessKeyId(), s.managementCredentials().secretAccessKey()));
                b.azure(a -> a.withEndpoint(s.azureEndpoint()).withTenant(s.azureTenantId()));
                b.gcp(g -> g.withEndpoint(s.gcpTarget()).withOrganization(s.estate().gcp().organization()));
                if (providers.isEmpty() && loaded.providers().isEmpty()) {
                    b.providers(SimProviders.AVAILABLE.toArray(String[]::new));
                }
                LoggerFactory.getLogger("cloudg.sim").info("cloud-sim started at {}", s.awsEndpoint());
            }
            if (!providers.isEmpty()) {
                b.providers(providers.stream().map(p -> p.toLowerCase(Locale.ROOT)).toArray(String[]::new));
            }
            if (datasetDir != null) {
                mcpSettings = mcpSettings.withDatasetDir(datasetDir);
            }
            if (host != null || port != null) {
                mcpSettings = mcpSettings.withHttp(host != null ? host : mcpSettings.httpHost(),
                        port != null ? port : mcpSettings.httpPort());
            }
            CloudGConfig cfg = b.build();
            // over HTTP, /metrics is always served beside the MCP endpoint; on metrics.port too if set
            runMetrics = RunMetrics.open(MetricsSettings.from(file), "mcp", http);
            CloudgMcp mcp = CloudgMcp.builder(cfg).mcp(mcpSettings).metrics(runMetrics.metrics()).build();
            try {
                if (http) {
                    CloudgMcp.HttpEndpoint endpoint = mcp.serveHttp();
                    // SIGTERM: stop serving, cancel live operations (their scopes still cool down)
                    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                        endpoint.close();
                        mcp.close();
                    }, "cloudg-mcp-stop"));
                    err.println("cloudg: MCP at " + endpoint.uri());
                    endpoint.join();
                } else {
                    mcp.runStdio(System.in, System.out);
                }
            } finally {
                mcp.close();
            }
            return ExitCodes.OK;
        } catch (ConfigException | StartupException e) {
            err.println("cloudg: " + e.getMessage());
            return ExitCodes.CANNOT_START;
        } catch (IllegalStateException e) {
            if (e.getMessage() != null && e.getMessage().startsWith("cannot serve MCP")) {
                err.println("cloudg: " + e.getMessage());
                return ExitCodes.CANNOT_START;
            }
            throw e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ExitCodes.OK;
        } finally {
            if (running != null) {
                running.close();
            }
            if (runMetrics != null) {
                runMetrics.close();
            }
        }
    }
}
