package io.cloudg.cli;

import io.cloudg.preload.ClassPreload;
import io.cloudg.CloudGConfig;
import io.cloudg.cli.log.LogSetup;
import io.cloudg.config.ConfigFile;
import io.cloudg.mcp.config.McpSettings;
import io.cloudg.mcp.CloudgMcp;
import io.cloudg.mcp.Principals;
import io.cloudg.metrics.MetricsSettings;
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

    @Option(names = "--host", paramLabel = "HOST", description = "with --http: bind address (default: mcp.http.host, 127.0.0.1); "
            + "beyond loopback it warns that it speaks plain HTTP and wants tokens of 16+ characters")
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

    @Option(names = "--redis", paramLabel = "URL", description = "keep the governor's state and the live guard in this "
            + "Redis (redis:// or rediss://), shared with every map and server of the estate")
    String redis;

    @Override
    public Integer call() throws InterruptedException {
        ClassPreload.global().start(); // overlaps the start; jobs wait for it (issue 37)
        PrintStream err = System.err;
        ConfigFile file = ConfigLocation.load(config);
        CloudGConfig loaded = CloudGConfig.from(file);
        McpSettings mcpSettings = McpSettings.from(file);
        if (datasetDir != null) {
            mcpSettings = mcpSettings.withDatasetDir(datasetDir);
        }
        if (host != null) {
            io.cloudg.config.BindAddress.check("--host", host);
        }
        if (host != null || port != null) {
            mcpSettings = mcpSettings.withHttp(host != null ? host : mcpSettings.httpHost(),
                    port != null ? port : mcpSettings.httpPort());
        }
        Principals principals = Principals.from(mcpSettings, System::getenv); // checked before anything starts
        if (http) {
            principals.requireHttp(mcpSettings.httpHost());
            io.cloudg.config.BindAddress.resolve(host != null ? "--host" : "mcp.http.host", mcpSettings.httpHost(), 0);
        } else {
            principals.stdio(System.getProperty("user.name"));
        }
        CloudGConfig.Builder b = loaded.toBuilder();
        if (!providers.isEmpty()) {
            b.providers(providers.stream().map(p -> p.toLowerCase(Locale.ROOT)).toArray(String[]::new));
        }
        try (SimSession session = sim ? SimSession.start(null, null) : null) {
            if (session != null) {
                session.pointAt(b);
            }
            CloudGConfig cfg = b.build();
            cfg = cfg.toBuilder().ratelimit(cfg.ratelimit().withRedisUrl(redis)).build();
            // over HTTP, /metrics is always served beside the MCP endpoint; on metrics.port too if set
            try (RunMetrics runMetrics = RunMetrics.open(MetricsSettings.from(file), "mcp", http);
                 CloudgMcp mcp = CloudgMcp.builder(cfg).mcp(mcpSettings).metrics(runMetrics.metrics()).build()) {
                if (http) {
                    CloudgMcp.HttpEndpoint endpoint = mcp.serveHttp();
                    LogSetup.started();
                    err.println("cloudg: MCP at " + endpoint.uri());
                    // SIGTERM or Ctrl-C: stop serving, cancel live operations (their scopes still cool down), exit 0
                    try (StopSignals signals = StopSignals.onStop(endpoint::close)) {
                        endpoint.join();
                    }
                } else {
                    LogSetup.started();
                    mcp.runStdio(System.in, System.out);
                }
            }
            return ExitCodes.OK;
        }
    }
}
