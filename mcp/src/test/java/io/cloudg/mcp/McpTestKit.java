package io.cloudg.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import io.cloudg.CloudGConfig;
import io.cloudg.InventoryResult;
import io.cloudg.mcp.config.McpSettings;
import io.cloudg.mcp.guard.GuardListener;
import io.cloudg.mcp.guard.LiveCall;
import io.cloudg.mcp.guard.OperationState;
import io.cloudg.mcp.guard.Principal;
import io.cloudg.mcp.guard.Refusal;
import io.cloudg.mcp.live.CollectSpec;
import io.cloudg.mcp.live.Collector;
import io.cloudg.resilience.config.RateLimitConfig;
import io.cloudg.sim.CloudSim;
import io.cloudg.sim.SimOptions;
import io.cloudg.sim.config.EstateSpec;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** Shared pieces of the MCP end-to-end tests: configuration on cloud-sim, clients, a gate, events. */
final class McpTestKit {
    static final List<String> COLLECTORS = List.of("vpc", "subnets", "security_groups", "s3_buckets", "iam_users");
    static final String ALICE = "tok-alice";
    static final String VIC = "tok-vic";
    static final String ROOT = "tok-root";

    private McpTestKit() {
    }

    /** cloud-sim's demo estate on a free port. */
    static CloudSim startSim() {
        return CloudSim.start(SimOptions.builder().port(0).estate(EstateSpec.defaultEstate()).build());
    }

    /** A config mapping the sim's organization in us-east-1 with a few collectors (principals: {@link #mcp}). */
    static CloudGConfig.Builder config(CloudSim sim, Path dir, RateLimitConfig rl) {
        return CloudGConfig.builder().providers("aws").outputDir(dir).jobConcurrency(4).ratelimit(rl)
                .aws(a -> a.withEndpoint(sim.awsEndpoint()).withOrg(true).withRegions(List.of("us-east-1"))
                        .withCredentials(sim.managementCredentials().accessKeyId(), sim.managementCredentials().secretAccessKey())
                        .withCollectors(COLLECTORS, List.of()).withSweeps(false, false));
    }

    /** The {@code mcp} section of the tests: datasets under {@code dir}, any free HTTP port, three principals. */
    static McpSettings mcp(Path dir) {
        return McpSettings.DEFAULTS.withDatasetDir(dir.resolve("datasets")).withHttp("127.0.0.1", 0)
                .withPrincipal(new McpSettings.PrincipalSpec("alice", List.of("operator"), ALICE, null))
                .withPrincipal(new McpSettings.PrincipalSpec("vic", List.of("viewer"), VIC, null))
                .withPrincipal(new McpSettings.PrincipalSpec("root", List.of("admin"), ROOT, null))
                .withStdioPrincipal("alice");
    }

    static McpSyncClient http(URI endpoint, String token) {
        HttpClientStreamableHttpTransport t = HttpClientStreamableHttpTransport
                .builder(endpoint.getScheme() + "://" + endpoint.getRawAuthority()).endpoint(endpoint.getRawPath())
                .jsonMapper(Json.MCP)
                .requestBuilder(java.net.http.HttpRequest.newBuilder().header("Authorization", "Bearer " + token))
                .build();
        McpSyncClient c = McpClient.sync(t).requestTimeout(Duration.ofSeconds(120))
                .initializationTimeout(Duration.ofSeconds(30)).build();
        c.initialize();
        return c;
    }

    static McpSchema.CallToolResult call(McpSyncClient c, String tool, Map<String, Object> args) {
        return c.callTool(McpSchema.CallToolRequest.builder(tool).arguments(args).build());
    }

    /** The structured result as a tree. */
    static JsonNode json(McpSchema.CallToolResult r) {
        return Json.MAPPER.valueToTree(r.structuredContent());
    }

    /** The data of a JSON-RPC error as a tree. */
    static JsonNode data(McpError e) {
        return Json.MAPPER.valueToTree(e.getJsonRpcError().data());
    }

    /** Holds every collection at the door until opened; counts who came. */
    static final class GatedCollector implements Collector {
        final Collector real;
        final Semaphore entered = new Semaphore(0);
        final AtomicInteger calls = new AtomicInteger();
        private volatile CountDownLatch gate = new CountDownLatch(0);

        GatedCollector(Collector real) {
            this.real = real;
        }

        void close() {
            gate = new CountDownLatch(1);
        }

        void open() {
            gate.countDown();
        }

        /** Waits until {@code n} more collections have entered. */
        void awaitEntered(int n) throws InterruptedException {
            if (!entered.tryAcquire(n, 60, TimeUnit.SECONDS)) {
                throw new AssertionError("no collection entered within 60 s");
            }
        }

        @Override
        public InventoryResult collect(CollectSpec spec, Path outDir) throws InterruptedException {
            calls.incrementAndGet();
            entered.release();
            gate.await();
            return real.collect(spec, outDir);
        }
    }

    /** Counts the guard's decisions so tests wait on them instead of sleeping. */
    static final class Events implements GuardListener {
        final Semaphore joined = new Semaphore(0);
        final Semaphore refused = new Semaphore(0);
        final Semaphore finished = new Semaphore(0);

        @Override
        public void joined(String id, LiveCall call, Principal p) {
            joined.release();
        }

        @Override
        public void refused(LiveCall call, Principal p, Refusal r) {
            refused.release();
        }

        @Override
        public void finished(String id, LiveCall call, OperationState state, long ms) {
            finished.release();
        }

        static void await(Semaphore s, String what) throws InterruptedException {
            if (!s.tryAcquire(60, TimeUnit.SECONDS)) {
                throw new AssertionError("no " + what + " within 60 s");
            }
        }
    }
}
