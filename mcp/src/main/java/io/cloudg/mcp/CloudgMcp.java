package io.cloudg.mcp;

import io.cloudg.CloudGConfig;
import io.cloudg.Governors;
import io.cloudg.mcp.config.McpSettings;
import io.cloudg.mcp.dataset.DatasetNotFoundException;
import io.cloudg.mcp.dataset.DatasetStore;
import io.cloudg.mcp.guard.ForceNotAllowedException;
import io.cloudg.mcp.guard.GuardListener;
import io.cloudg.mcp.guard.GuardStore;
import io.cloudg.mcp.guard.GuardUnavailableException;
import io.cloudg.mcp.guard.InMemoryGuardStore;
import io.cloudg.mcp.guard.LiveOperationGuard;
import io.cloudg.mcp.guard.LiveRefusedException;
import io.cloudg.mcp.guard.Principal;
import io.cloudg.mcp.guard.redis.RedisGuardStore;
import io.cloudg.mcp.live.Collector;
import io.cloudg.mcp.live.EmbeddedCollector;
import io.cloudg.metrics.CloudgMetrics;
import io.cloudg.config.StartupException;
import io.cloudg.resilience.Governor;
import io.cloudg.resilience.config.RateLimitConfig;
import io.cloudg.resilience.config.RedisSettings;
import io.cloudg.resilience.redis.RedisClients;
import io.cloudg.resilience.redis.StateStores;
import io.cloudg.resilience.time.TimeSource;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import jakarta.servlet.DispatcherType;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import org.eclipse.jetty.ee11.servlet.FilterHolder;
import org.eclipse.jetty.ee11.servlet.ServletContextHandler;
import org.eclipse.jetty.ee11.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * cloudg's MCP server: the tools, the {@code cloudg://ratelimit} resource, the guard and the datasets,
 * served over stdio ({@link #serveStdio}) or streamable HTTP ({@link #serveHttp}) with the MCP Java SDK.
 *
 * <pre>{@code
 * CloudGConfig config = CloudGConfig.load(Path.of("cloudg.yaml"));
 * try (CloudgMcp mcp = CloudgMcp.builder(config).build();
 *      CloudgMcp.HttpEndpoint http = mcp.serveHttp()) {
 *     System.err.println("MCP at " + http.uri());
 *     http.join();
 * }
 * }</pre>
 *
 * <p>Who calls: over HTTP the bearer token ({@code mcp.principals}), checked before the MCP transport sees
 * the request; over stdio the configured local principal. The guard's store is Redis when
 * {@code ratelimit.backend} is redis (replicas share caps and cooldowns), else memory.
 */
public final class CloudgMcp implements AutoCloseable {
    public static final String SERVER_NAME = "cloudg";
    public static final String SERVER_VERSION = "0.1.0";
    public static final String RATELIMIT_URI = "cloudg://ratelimit";
    static final String PRINCIPAL_KEY = "cloudg.principal";
    private static final Logger LOG = LoggerFactory.getLogger("cloudg.mcp");

    static final String INSTRUCTIONS = "cloudg maps cloud estates without tripping API quotas. Live tools "
            + "(map_inventory, collect_assets, run_scanners, run_pipeline) call the cloud and are guarded: one "
            + "operation per scope at a time, a cooldown after each, identical calls in flight share one run. "
            + "Before a live tool, read rate_limit_status (or cloudg://ratelimit); if a live call is refused "
            + "(error -31029), use the dataset named in use_dataset with list_datasets, get_dataset, query_assets "
            + "and scan_dataset, which never call a cloud.";

    private final CloudGConfig config;
    private final McpSettings mcp;
    private final Governor governor;
    private final boolean ownsGovernor;
    private final CloudgMetrics metrics;
    private final GuardStore guardStore;
    private final LiveOperationGuard guard;
    private final DatasetStore datasets;
    private final Principals principals;
    private final CallQuota callQuota;
    private final List<ToolDef> tools;
    private final String osUser;
    private final TimeSource time;
    private final java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();

    private CloudgMcp(Builder b) {
        this.config = b.config;
        this.mcp = b.mcp;
        this.principals = Principals.from(mcp, b.env);
        this.callQuota = new CallQuota(mcp, b.time);
        this.osUser = b.osUser;
        this.time = b.time;
        this.ownsGovernor = b.governor == null;
        this.metrics = b.metrics;
        // a Redis store has its round trips timed (cloudg_redis_command_seconds); the store is built the one way
        this.governor = b.governor != null ? b.governor
                : Governors.create(config.ratelimit(), b.env, TimeSource.system(), metrics);
        this.guardStore = b.guardStore != null ? b.guardStore : defaultGuardStore(config.ratelimit(), b.env, b.time);
        Path dir = mcp.datasetDir() != null ? mcp.datasetDir() : config.outputDir().resolve("datasets");
        this.datasets = new DatasetStore(dir, b.time);
        this.guard = new LiveOperationGuard(guardStore, b.time, mcp.live(), datasets::newestCovering, b.listener);
        Collector collector = b.collector != null ? b.collector : new EmbeddedCollector(config, governor);
        List<ToolDef> all = new ArrayList<>(new LiveTools(config, guard, datasets, collector).defs());
        all.add(statusTool());
        all.addAll(new DatasetTools(datasets).defs());
        this.tools = List.copyOf(all);
    }

    public static Builder builder(CloudGConfig config) {
        return new Builder(config);
    }

    private static GuardStore defaultGuardStore(RateLimitConfig rl, Function<String, String> env, TimeSource time) {
        if (rl.backend() != RateLimitConfig.Backend.REDIS) {
            return new InMemoryGuardStore(time);
        }
        RedisSettings s = rl.redis();
        return RedisGuardStore.builder(RedisClients.create(s, env)).keyPrefix(s.keyPrefix()).ownsClient(true)
                .describe(String.join(",", s.addresses())).build();
    }

    public LiveOperationGuard guard() {
        return guard;
    }

    public DatasetStore datasets() {
        return datasets;
    }

    /** The tool names, in the order {@code tools/list} gives them. */
    public List<String> toolNames() {
        return tools.stream().map(t -> t.tool().name()).toList();
    }

    private ToolDef statusTool() {
        return new ToolDef(ToolDef.define("rate_limit_status", "Rate limits and guard rails",
                "Cooldowns per scope, live operations in flight (on every replica), this caller's quota use, the "
                        + "guard's limits and the governor's throttling state (slowed buckets, open breakers). Never "
                        + "calls a cloud API. Same as the resource " + RATELIMIT_URI + ".",
                """
                {"type": "object", "additionalProperties": false, "properties": {}}
                """, false), (p, a) -> status(p));
    }

    private RateLimitStatus status(Principal p) {
        return RateLimitStatus.of(guard, mcp.live(), governor, p, principals.mayRunLive(p));
    }

    // ------------------------------------------------------------------ the SDK server

    private McpSyncServer build(McpServer.SyncSpecification<?> spec, Function<McpSyncServerExchange, Principal> who) {
        List<McpServerFeatures.SyncToolSpecification> specs = tools.stream().map(t -> toolSpec(t, who)).toList();
        McpSchema.Resource ratelimit = McpSchema.Resource.builder(RATELIMIT_URI, "ratelimit")
                .title("Rate limits and guard rails").mimeType("application/json")
                .description("What rate_limit_status returns: cooldowns, operations in flight, governor throttling.")
                .build();
        return spec.serverInfo(SERVER_NAME, SERVER_VERSION).jsonMapper(Json.MCP).instructions(INSTRUCTIONS)
                .capabilities(McpSchema.ServerCapabilities.builder().tools(false).resources(false, false).build())
                .validateToolInputs(true)
                .tools(specs)
                .resources(new McpServerFeatures.SyncResourceSpecification(ratelimit, (ex, req) -> {
                    Principal p = who.apply(ex);
                    takeCall(p);
                    return McpSchema.ReadResourceResult.builder(List.of(McpSchema.TextResourceContents
                            .builder(RATELIMIT_URI, Json.pretty(status(p))).mimeType("application/json").build())).build();
                }))
                .build();
    }

    /** One call from {@code p} against its {@code max_calls_per_minute} (tools and resources alike), or -31032. */
    private void takeCall(Principal p) {
        java.util.OptionalLong wait = callQuota.take(p.name());
        if (wait.isPresent()) {
            throw McpErrors.rateLimited(p.name(), callQuota.limit(p.name()), wait.getAsLong());
        }
    }

    /** Wraps a tool body: principal, arguments, and every error mapped by {@link McpErrors}. */
    private McpServerFeatures.SyncToolSpecification toolSpec(ToolDef def, Function<McpSyncServerExchange, Principal> who) {
        return McpServerFeatures.SyncToolSpecification.builder().tool(def.tool()).callHandler((ex, req) -> {
            Principal p = who.apply(ex);
            takeCall(p);
            if (def.live() && !principals.mayRunLive(p)) {
                LOG.info("refused {} to {} {}: may not run live tools", def.tool().name(), p.name(), p.roleNames());
                throw McpErrors.liveNotAllowed(def.tool().name(), p, principals.liveRoles(), principals.liveToolsDenied(p));
            }
            try {
                Object out = def.handler().call(p, new ToolArgs(req.arguments()));
                if (out instanceof McpSchema.CallToolResult r) {
                    return r;
                }
                com.fasterxml.jackson.databind.node.ObjectNode tree = Json.tree(out);
                return McpSchema.CallToolResult.builder().structuredContent(Json.map(tree))
                        .addTextContent(Json.pretty(tree)).build();
            } catch (ToolArgs.InvalidArgumentException | DatasetNotFoundException e) {
                throw McpErrors.invalidParams(e.getMessage());
            } catch (LiveRefusedException e) {
                throw McpErrors.refused(e.refusal());
            } catch (ForceNotAllowedException e) {
                throw McpErrors.forceNotAllowed(e);
            } catch (GuardUnavailableException e) {
                throw McpErrors.guardUnavailable(guardStore.describe(), e);
            } catch (McpError e) {
                throw e;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw McpErrors.invalidParams("the request was interrupted (the server is stopping)");
            } catch (Exception e) {
                LOG.warn("{} by {} failed", def.tool().name(), p.name(), e);
                return McpSchema.CallToolResult.builder().isError(true)
                        .addTextContent(def.tool().name() + " failed: " + e.getMessage()).build();
            }
        }).build();
    }

    // ------------------------------------------------------------------ stdio

    /**
     * How long, once stdin has ended, the requests already read may still take to be answered: as long as a
     * live operation may run ({@code ratelimit.live_operation_timeout_seconds}, after which the guard cancels it
     * and its call is answered) and {@value #STDIO_DRAIN_GRACE_SECONDS} s more.
     */
    static final long STDIO_DRAIN_GRACE_SECONDS = 30;

    /**
     * Serves one MCP session over {@code in}/{@code out} (newline-delimited JSON-RPC; stdout is the protocol,
     * so logs MUST go to stderr), as the configured stdio principal. Returns the running server; it ends
     * when {@code in} ends, once the requests read before the end are answered ({@link #runStdio}). A line
     * that is not one JSON-RPC message is answered with a JSON-RPC error and the session goes on
     * ({@link StdioLines}).
     */
    public McpSyncServer serveStdio(InputStream in, OutputStream out) {
        return serveStdio(in, out, () -> { });
    }

    private McpSyncServer serveStdio(InputStream in, OutputStream out, Runnable ended) {
        Principal local = principals.stdio(osUser);
        LOG.info("MCP server ready over stdio as {} {}: datasets in {}, guard store {}, governor store {}", local.name(),
                local.roleNames(), datasets.directory(), guardStore.describe(), governor.store().describe());
        StdioLines.InFlight inFlight = new StdioLines.InFlight();
        StdioLines.Output lines = new StdioLines.Output(out, inFlight);
        StdioLines.EndOfInput end = () -> {
            try {
                answerInFlight(inFlight);
            } finally {
                ended.run();
            }
        };
        return build(McpServer.sync(new StdioServerTransportProvider(Json.MCP, StdioLines.input(in, lines, inFlight, end),
                lines)), ex -> local);
    }

    /** At the end of stdin: waits for the answers to the requests read, within the bound; says what it gave up. */
    private void answerInFlight(StdioLines.InFlight inFlight) throws InterruptedException {
        long bound = mcp.live().operationTimeoutSeconds() + STDIO_DRAIN_GRACE_SECONDS;
        List<String> abandoned = inFlight.awaitAnswers(time, bound * 1_000_000_000L, open -> LOG.info(
                "stdin ended with {} request(s) in flight: answering them before exiting (waiting at most {} s)",
                open.size(), bound));
        if (!abandoned.isEmpty()) {
            LOG.warn("stdin ended: abandoned {} request(s) still unanswered after {} s: {}", abandoned.size(), bound,
                    String.join(", ", abandoned));
        }
    }

    /**
     * Serves stdio until {@code in} ends (the client closed the session) and every request read before the end
     * is answered (or, after {@code live_operation_timeout_seconds} + {@value #STDIO_DRAIN_GRACE_SECONDS} s,
     * named in a warning line as abandoned), then stops the server. What {@code cloudg mcp} does.
     */
    public void runStdio(InputStream in, OutputStream out) throws InterruptedException {
        java.util.concurrent.CountDownLatch ended = new java.util.concurrent.CountDownLatch(1);
        McpSyncServer server = serveStdio(in, out, ended::countDown);
        try {
            ended.await();
        } finally {
            server.closeGracefully();
        }
    }

    // ------------------------------------------------------------------ streamable HTTP

    /** A running HTTP endpoint. */
    public static final class HttpEndpoint implements AutoCloseable {
        private final Server jetty;
        private final McpSyncServer server;
        private final URI uri;
        private final java.util.concurrent.atomic.AtomicBoolean stopped = new java.util.concurrent.atomic.AtomicBoolean();

        HttpEndpoint(Server jetty, McpSyncServer server, URI uri) {
            this.jetty = jetty;
            this.server = server;
            this.uri = uri;
        }

        /** {@code http://host:port/mcp}. */
        public URI uri() {
            return uri;
        }

        /** Blocks until the server stops. */
        public void join() throws InterruptedException {
            jetty.join();
        }

        @Override
        public void close() {
            if (!stopped.compareAndSet(false, true)) {
                return;
            }
            try {
                server.closeGracefully();
            } finally {
                try {
                    jetty.stop();
                } catch (Exception e) {
                    LOG.warn("stopping the HTTP server failed: {}", e.getMessage());
                }
            }
        }
    }

    /**
     * Serves MCP over streamable HTTP at {@code mcp.http.host:port} + {@code mcp.http.path} (an embedded
     * Jetty with the SDK's servlet transport). Every request needs a configured bearer token.
     */
    public HttpEndpoint serveHttp() {
        boolean exposed = principals.requireHttp(mcp.httpHost());
        io.cloudg.config.BindAddress.resolve("mcp.http.host", mcp.httpHost(), mcp.httpPort());
        String path = mcp.httpPath();
        HttpServletStreamableServerTransportProvider transport = HttpServletStreamableServerTransportProvider.builder()
                .jsonMapper(Json.MCP).mcpEndpoint(path).maxRequestSize(JsonRpcMessages.MAX_BODY_BYTES)
                .contextExtractor(req -> req.getAttribute(BearerAuthFilter.PRINCIPAL_ATTRIBUTE) instanceof Principal p
                        ? McpTransportContext.create(Map.of(PRINCIPAL_KEY, p)) : McpTransportContext.EMPTY)
                .build();
        Server jetty = new Server();
        ServerConnector connector = new ServerConnector(jetty);
        McpSyncServer server = null;
        try {
            server = build(McpServer.sync(transport), CloudgMcp::httpPrincipal);
            connector.setHost(mcp.httpHost());
            connector.setPort(mcp.httpPort());
            jetty.addConnector(connector);
            ServletContextHandler context = new ServletContextHandler();
            context.setContextPath("/");
            ServletHolder servlet = new ServletHolder("mcp", transport);
            servlet.setAsyncSupported(true);
            context.addServlet(servlet, path);
            FilterHolder auth = new FilterHolder(new BearerAuthFilter(principals));
            auth.setAsyncSupported(true);
            context.addFilter(auth, path, EnumSet.of(DispatcherType.REQUEST));
            FilterHolder jsonRpc = new FilterHolder(new JsonRpcHttpFilter(path));
            jsonRpc.setAsyncSupported(true);
            context.addFilter(jsonRpc, path, EnumSet.of(DispatcherType.REQUEST));
            context.addServlet(new ServletHolder("not-found", new NotFoundServlet(path)), "/");
            if (metrics.enabled() && !path.equals("/metrics")) {
                context.addServlet(new ServletHolder("metrics", new MetricsServlet(metrics)), "/metrics");
            }
            jetty.setHandler(context);
            start(jetty);
        } catch (RuntimeException | Error e) {
            // whatever failed, this server's sessions, transport and Jetty threads are stopped. One thread stays: SDK
            // 2.2 runs its session sweeper on a scheduler of its own (not a daemon) that it never disposes, so
            // cloudg's Main ends the process with its exit code whatever a command throws, an Error included
            release(e, server, transport, jetty);
            throw e;
        }
        if (exposed) {
            LOG.warn("MCP over plain HTTP on {}:{} (mcp.http.host is not a loopback address): bearer tokens and "
                    + "results cross the network unencrypted; put a TLS-terminating proxy in front of it, or listen "
                    + "on 127.0.0.1", mcp.httpHost(), connector.getLocalPort());
        }
        URI uri = URI.create("http://" + mcp.httpHost() + ":" + connector.getLocalPort() + path);
        LOG.info("MCP server ready over streamable HTTP at {}: datasets in {}, guard store {}, governor store {}", uri,
                datasets.directory(), guardStore.describe(), governor.store().describe());
        return new HttpEndpoint(jetty, server, uri);
    }

    /** Starts Jetty; a port in use or an address it cannot bind is a start-up failure naming the setting. */
    private void start(Server jetty) {
        try {
            jetty.start();
        } catch (Exception e) {
            java.net.BindException bind = null;
            for (Throwable t = e; t != null; t = t.getCause()) {
                bind = t instanceof java.net.BindException b ? b : bind;
            }
            String why = bind != null ? io.cloudg.config.BindAddress.bindFailure(bind, "mcp.http.host", mcp.httpHost(),
                    mcp.httpPort(), "set --port or mcp.http.port") : String.valueOf(e.getMessage());
            throw new StartupException("cannot serve MCP on " + mcp.httpHost() + ":" + mcp.httpPort() + ": " + why, e);
        }
    }

    /** Stops what a failed {@link #serveHttp} had made; a failure while stopping is added to {@code failure}. */
    private static void release(Throwable failure, McpSyncServer server,
                                HttpServletStreamableServerTransportProvider transport, Server jetty) {
        try {
            if (server != null) {
                server.close();
            } else {
                transport.close();
            }
        } catch (RuntimeException e) {
            failure.addSuppressed(e);
        }
        try {
            jetty.stop();
        } catch (Exception e) {
            failure.addSuppressed(e);
        }
    }

    private static Principal httpPrincipal(McpSyncServerExchange ex) {
        Object p = ex.transportContext() == null ? null : ex.transportContext().get(PRINCIPAL_KEY);
        if (p instanceof Principal principal) {
            return principal;
        }
        throw McpError.builder(McpSchema.ErrorCodes.INVALID_REQUEST).message("no authenticated principal").build();
    }

    /** Cancels live operations (their scopes cool down) and releases the stores. Idempotent. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        guard.close();
        guardStore.close();
        if (ownsGovernor) {
            governor.close();
        }
    }

    public static final class Builder {
        private final CloudGConfig config;
        private McpSettings mcp = McpSettings.DEFAULTS;
        private Governor governor;
        private TimeSource time = TimeSource.system();
        private GuardStore guardStore;
        private Collector collector;
        private Function<String, String> env = System::getenv;
        private GuardListener listener = GuardListener.NONE;
        private CloudgMetrics metrics = CloudgMetrics.none();
        private String osUser = System.getProperty("user.name");

        private Builder(CloudGConfig config) {
            this.config = Objects.requireNonNull(config);
        }

        /** The {@code mcp} section: principals, HTTP address, dataset directory (default: none configured). */
        public Builder mcp(McpSettings m) {
            this.mcp = Objects.requireNonNull(m);
            return this;
        }

        /** Edits the {@code mcp} settings given so far. */
        public Builder mcp(java.util.function.UnaryOperator<McpSettings> edit) {
            this.mcp = Objects.requireNonNull(edit.apply(mcp));
            return this;
        }

        /** The governor live calls go through (default: one for {@code ratelimit}, owned and closed here). */
        public Builder governor(Governor g) {
            this.governor = g;
            return this;
        }

        /**
         * The guard's clock (operation timeouts, in-memory cooldowns, dataset times) and the bound on answering
         * the requests in flight when stdin ends.
         */
        public Builder time(TimeSource t) {
            this.time = Objects.requireNonNull(t);
            return this;
        }

        /** The guard's store (default: Redis when {@code ratelimit.backend} is redis, else memory). */
        public Builder guardStore(GuardStore s) {
            this.guardStore = s;
            return this;
        }

        /** What calls the clouds (default: {@link EmbeddedCollector}). */
        public Builder collector(Collector c) {
            this.collector = c;
            return this;
        }

        /** Where {@code token_env} and Redis passwords are read (default: the environment). */
        public Builder env(Function<String, String> e) {
            this.env = Objects.requireNonNull(e);
            return this;
        }

        public Builder listener(GuardListener l) {
            this.listener = Objects.requireNonNull(l);
            return this;
        }

        /**
         * The process's metrics: the governor's (when this server makes its own governor) and, over HTTP,
         * {@code GET /metrics} beside the MCP endpoint (default: none).
         */
        public Builder metrics(CloudgMetrics m) {
            this.metrics = Objects.requireNonNull(m);
            return this;
        }

        /** The OS user, the stdio principal when {@code mcp.stdio_principal} is unset. */
        public Builder osUser(String u) {
            this.osUser = u;
            return this;
        }

        public CloudgMcp build() {
            return new CloudgMcp(this);
        }
    }
}
