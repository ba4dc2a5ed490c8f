package io.cloudg.mcp;

import static io.cloudg.mcp.McpTestKit.ALICE;
import static io.cloudg.mcp.McpTestKit.ROOT;
import static io.cloudg.mcp.McpTestKit.VIC;
import static io.cloudg.mcp.McpTestKit.call;
import static io.cloudg.mcp.McpTestKit.data;
import static io.cloudg.mcp.McpTestKit.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.cloudg.CloudGConfig;
import io.cloudg.mcp.config.LiveLimits;
import io.cloudg.mcp.live.EmbeddedCollector;
import io.cloudg.resilience.Governor;
import io.cloudg.resilience.config.RateLimitConfig;
import io.cloudg.resilience.testkit.Threads;
import io.cloudg.resilience.time.ManualTimeSource;
import io.cloudg.sim.CloudSim;
import io.cloudg.sim.config.FaultKind;
import io.cloudg.sim.config.FaultRule;
import io.cloudg.sim.config.FaultSpec;
import io.cloudg.sim.config.Match;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.McpHttpClientTransportAuthorizationException;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The MCP server over streamable HTTP with the SDK's own client, mapping cloud-sim: tokens, the live tools,
 * every guard rail and its -31029 payload. The guard runs on a manual clock; operations are held open by a
 * gate, and the test waits on the guard's events, never on a sleep.
 */
class McpHttpEndToEndTest {
    private static CloudSim sim;
    private static Governor governor;

    @TempDir
    Path dir;

    /** Every map (dataset) this class writes matches docs/schema/inventory-map.schema.json. */
    @org.junit.jupiter.api.AfterEach
    void mapsMatchTheSchema() {
        io.cloudg.testkit.MapSchema.assertEveryMapValid(dir);
    }

    private final ManualTimeSource time = new ManualTimeSource();
    private final McpTestKit.Events events = new McpTestKit.Events();
    private final List<AutoCloseable> open = new ArrayList<>();
    private McpTestKit.GatedCollector gate;

    @BeforeAll
    static void startSim() {
        sim = McpTestKit.startSim();
        governor = Governor.builder().config(RateLimitConfig.defaults()).build();
    }

    @AfterAll
    static void stopSim() {
        sim.close();
    }

    @AfterEach
    void closeAll() throws Exception {
        sim.setFaults(FaultSpec.NONE);
        if (gate != null) {
            gate.open();
        }
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
    }

    /** A server on the sim with these live limits, and its HTTP endpoint. */
    private CloudgMcp.HttpEndpoint server(UnaryOperator<LiveLimits> live) {
        return server(live, m -> m);
    }

    /** A server on the sim with these live limits and the test principals edited by {@code settings}. */
    private CloudgMcp.HttpEndpoint server(UnaryOperator<LiveLimits> live,
                                          UnaryOperator<io.cloudg.mcp.config.McpSettings> settings) {
        CloudGConfig config = McpTestKit.config(sim, dir, RateLimitConfig.defaults()).build();
        gate = new McpTestKit.GatedCollector(new EmbeddedCollector(config, governor));
        CloudgMcp mcp = CloudgMcp.builder(config).mcp(settings.apply(McpTestKit.mcp(dir)).withLive(live.apply(LiveLimits.DEFAULTS)))
                .governor(governor).time(time)
                .collector(gate).listener(events).build();
        open.add(mcp);
        CloudgMcp.HttpEndpoint http = mcp.serveHttp();
        open.add(http);
        return http;
    }

    private McpSyncClient client(CloudgMcp.HttpEndpoint http, String token) {
        McpSyncClient c = McpTestKit.http(http.uri(), token);
        open.add(c::closeGracefully);
        return c;
    }

    private static McpError refusedBy(Runnable call) {
        List<McpError> caught = new ArrayList<>();
        assertThatThrownBy(call::run).isInstanceOfSatisfying(McpError.class, caught::add);
        return caught.get(0);
    }

    private Set<String> truthKeys() {
        Set<String> regional = Set.of("AWS::EC2::VPC", "AWS::EC2::Subnet", "AWS::EC2::SecurityGroup");
        Set<String> out = new TreeSet<>();
        for (io.cloudg.sim.estate.Asset a : sim.truth().assets()) {
            if ((regional.contains(a.type()) && a.region().equals("us-east-1")) || a.type().equals("AWS::S3::Bucket")
                    || a.type().equals("AWS::IAM::User")) {
                out.add(a.account() + "|" + a.type() + "|" + a.id());
            }
        }
        return out;
    }

    @Test
    void unknownTokensAreRefusedAndTheToolsAreListed() throws Exception {
        CloudgMcp.HttpEndpoint http = server(l -> l);
        assertThatThrownBy(() -> McpTestKit.http(http.uri(), "not-a-token"))
                .hasRootCauseInstanceOf(McpHttpClientTransportAuthorizationException.class);
        java.net.http.HttpResponse<String> raw = java.net.http.HttpClient.newHttpClient().send(
                java.net.http.HttpRequest.newBuilder(http.uri()).header("Authorization", "Bearer nope")
                        .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                        .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{}")).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(raw.statusCode()).isEqualTo(401);
        assertThat(raw.headers().firstValue("WWW-Authenticate")).hasValue("Bearer realm=\"cloudg\", error=\"invalid_token\"");
        McpSyncClient c = client(http, VIC);
        assertThat(c.listTools().tools()).extracting(McpSchema.Tool::name).containsExactlyInAnyOrder("map_inventory",
                "collect_assets", "run_scanners", "run_pipeline", "rate_limit_status", "list_datasets", "get_dataset",
                "query_assets", "scan_dataset");
        assertThat(c.listResources().resources()).extracting(McpSchema.Resource::uri).containsExactly("cloudg://ratelimit");
        McpSchema.Tool map = c.listTools().tools().stream().filter(t -> t.name().equals("map_inventory")).findFirst().orElseThrow();
        assertThat(map.annotations().openWorldHint()).isTrue();
        assertThat(map.description()).contains("-31029", "use_dataset", "rate_limit_status");
    }

    @Test
    void mapInventoryMapsTheSimSavesADatasetAndReadsItBackWithoutACloud() {
        CloudgMcp.HttpEndpoint http = server(l -> l);
        McpSyncClient c = client(http, ALICE);
        JsonNode r = json(call(c, "map_inventory", Map.of()));
        assertThat(r.path("joined").asBoolean()).isFalse();
        assertThat(r.path("operation_id").asText()).startsWith("op-");
        JsonNode ds = r.path("dataset");
        assertThat(ds.path("kind").asText()).isEqualTo("map");
        assertThat(ds.path("principal").asText()).isEqualTo("alice");
        assertThat(ds.path("providers")).extracting(JsonNode::asText).containsExactly("aws");
        assertThat(ds.path("scopes")).extracting(JsonNode::asText).containsExactly("aws");
        assertThat(ds.path("complete").asBoolean()).isTrue();
        Set<String> truth = truthKeys();
        assertThat(ds.path("asset_count").asLong()).isEqualTo(truth.size());

        String id = ds.path("id").asText();
        JsonNode list = json(call(c, "list_datasets", Map.of()));
        assertThat(list.path("datasets")).hasSize(1);
        assertThat(list.path("datasets").get(0).path("id").asText()).isEqualTo(id);
        assertThat(list.path("datasets").get(0).path("created_at").asText()).isEqualTo("2026-01-01T00:00:00Z");

        Set<String> mapped = new TreeSet<>();
        JsonNode page = json(call(c, "query_assets", Map.of("dataset", id, "limit", 500)));
        page.path("assets").forEach(a -> mapped.add(a.path("account_id").asText() + "|" + a.path("type").asText() + "|"
                + a.path("id").asText()));
        assertThat(mapped).isEqualTo(truth);
        JsonNode vpcs = json(call(c, "query_assets", Map.of("type", "AWS::EC2::VPC", "limit", 1)));
        assertThat(vpcs.path("assets")).hasSize(1);
        assertThat(vpcs.path("matched").asLong()).isEqualTo(truth.stream().filter(k -> k.contains("|AWS::EC2::VPC|")).count());
        assertThat(vpcs.path("more").asBoolean()).isTrue();
        assertThat(json(call(c, "get_dataset", Map.of("dataset", id))).path("incomplete")).isEmpty();
        McpError missing = refusedBy(() -> call(c, "get_dataset", Map.of("dataset", "ds-20990101T000000Z-000000")));
        assertThat(missing.getJsonRpcError().code()).isEqualTo(McpSchema.ErrorCodes.INVALID_PARAMS);
    }

    @Test
    void identicalConcurrentCallsShareOneRun() throws Exception {
        CloudgMcp.HttpEndpoint http = server(l -> l);
        McpSyncClient alice = client(http, ALICE);
        McpSyncClient root = client(http, ROOT);
        gate.close();
        CompletableFuture<McpSchema.CallToolResult> first = Threads.async(() ->
                call(alice, "map_inventory", Map.of("providers", List.of("aws"))));
        gate.awaitEntered(1);
        CompletableFuture<McpSchema.CallToolResult> second = Threads.async(() ->
                call(root, "map_inventory", Map.of()));
        McpTestKit.Events.await(events.joined, "join");
        gate.open();
        JsonNode a = json(first.get(120, TimeUnit.SECONDS));
        JsonNode b = json(second.get(120, TimeUnit.SECONDS));
        assertThat(gate.calls).as("one run for both callers").hasValue(1);
        assertThat(a.path("joined").asBoolean()).isFalse();
        assertThat(b.path("joined").asBoolean()).isTrue();
        assertThat(b.path("operation_id").asText()).isEqualTo(a.path("operation_id").asText());
        assertThat(b.path("dataset").path("id").asText()).isEqualTo(a.path("dataset").path("id").asText());
        assertThat(json(call(alice, "list_datasets", Map.of())).path("total").asInt()).isEqualTo(1);
    }

    @Test
    void aSecondOperationOnABusyScopeIsRefusedWithTheMinus31029Payload() throws Exception {
        CloudgMcp.HttpEndpoint http = server(l -> l);
        McpSyncClient alice = client(http, ALICE);
        McpSyncClient root = client(http, ROOT);
        gate.close();
        CompletableFuture<McpSchema.CallToolResult> running = Threads.async(() ->
                call(alice, "map_inventory", Map.of()));
        gate.awaitEntered(1);
        JsonNode status = json(call(root, "rate_limit_status", Map.of()));
        assertThat(status.path("guard").path("in_flight")).hasSize(1);
        assertThat(status.path("guard").path("in_flight").get(0).path("tool").asText()).isEqualTo("map_inventory");
        assertThat(status.path("guard").path("in_flight").get(0).path("on_this_server").asBoolean()).isTrue();

        McpError e = refusedBy(() -> call(root, "collect_assets", Map.of("provider", "aws", "account",
                sim.estate().aws().management().id(), "region", "us-east-1", "service", "vpc", "force", true)));
        assertThat(e.getJsonRpcError().code()).isEqualTo(-31029);
        JsonNode d = data(e);
        assertThat(d.path("reason").asText()).isEqualTo("busy");
        assertThat(d.path("limit").asText()).isEqualTo("live_max_concurrent");
        assertThat(d.path("retry_after_seconds").asLong()).as("a running operation is followed by a cooldown").isEqualTo(120);
        assertThat(d.path("scopes")).extracting(JsonNode::asText).containsExactly("aws");
        assertThat(d.path("tool").asText()).isEqualTo("collect_assets");
        assertThat(d.has("use_dataset")).isTrue();
        assertThat(d.path("use_dataset").isNull()).as("no dataset saved yet").isTrue();
        assertThat(e.getMessage()).contains("busy", "aws");
        gate.open();
        assertThat(running.get(120, TimeUnit.SECONDS).isError()).isNotEqualTo(Boolean.TRUE);
        assertThat(gate.calls).hasValue(1);
    }

    @Test
    void everyOperationCoolsItsScopeDownEvenAFailedOne() throws Exception {
        CloudgMcp.HttpEndpoint http = server(l -> l);
        McpSyncClient alice = client(http, ALICE);
        String first = json(call(alice, "map_inventory", Map.of())).path("dataset").path("id").asText();

        McpError e = refusedBy(() -> call(alice, "map_inventory", Map.of()));
        assertThat(e.getJsonRpcError().code()).isEqualTo(-31029);
        JsonNode d = data(e);
        assertThat(d.path("reason").asText()).isEqualTo("cooldown");
        assertThat(d.path("limit").asText()).isEqualTo("live_cooldown_seconds");
        assertThat(d.path("retry_after_seconds").asLong()).isEqualTo(120);
        assertThat(d.path("use_dataset").asText()).isEqualTo(first);
        assertThat(d.path("scopes")).extracting(JsonNode::asText).containsExactly("aws");
        time.advance(Duration.ofSeconds(100));
        assertThat(data(refusedBy(() -> call(alice, "run_pipeline", Map.of()))).path("retry_after_seconds").asLong())
                .isEqualTo(20);
        time.advance(Duration.ofSeconds(20));

        sim.setFaults(FaultSpec.of(new FaultRule(new Match(null, null, null, "sts", "GetCallerIdentity"),
                FaultKind.ACCESS_DENIED, null, null, null, null, Duration.ZERO)));
        McpSchema.CallToolResult failed = call(alice, "map_inventory", Map.of());
        assertThat(failed.isError()).isTrue();
        assertThat(json(failed).path("state").asText()).isEqualTo("failed");
        assertThat(json(failed).path("error").asText()).contains("STS GetCallerIdentity failed");
        sim.setFaults(FaultSpec.NONE);

        JsonNode after = data(refusedBy(() -> call(alice, "map_inventory", Map.of())));
        assertThat(after.path("reason").asText()).as("a failure cools down too").isEqualTo("cooldown");
        assertThat(after.path("retry_after_seconds").asLong()).isEqualTo(120);
        assertThat(after.path("use_dataset").asText()).as("the failed run saved nothing").isEqualTo(first);
        assertThat(json(call(alice, "list_datasets", Map.of())).path("total").asInt()).isEqualTo(1);
    }

    @Test
    void forceSkipsTheCooldownForAnOperatorAndIsRefusedForAViewerAllowedLiveTools() {
        CloudgMcp.HttpEndpoint http = server(l -> l, m -> m.withPrincipal(new io.cloudg.mcp.config.McpSettings.PrincipalSpec(
                "auditor", List.of("viewer"), "tok-auditor", null, null, true)));
        McpSyncClient alice = client(http, ALICE);
        McpSyncClient auditor = client(http, "tok-auditor");
        call(alice, "map_inventory", Map.of());
        McpError e = refusedBy(() -> call(auditor, "map_inventory", Map.of("force", true)));
        assertThat(e.getJsonRpcError().code()).isEqualTo(-31030);
        assertThat(data(e).path("principal").asText()).isEqualTo("auditor");
        assertThat(data(e).path("roles")).extracting(JsonNode::asText).containsExactly("viewer");
        assertThat(data(refusedBy(() -> call(auditor, "map_inventory", Map.of()))).path("reason").asText()).isEqualTo("cooldown");
        JsonNode forced = json(call(alice, "map_inventory", Map.of("force", true)));
        assertThat(forced.path("joined").asBoolean()).isFalse();
        assertThat(forced.path("dataset").path("complete").asBoolean()).isTrue();
        assertThat(gate.calls).hasValue(2);
    }

    @Test
    void theCallerQuotaRefusesTheNextLiveCall() {
        CloudgMcp.HttpEndpoint http = server(l -> l.withCooldownSeconds(0).withCallerMaxOperations(1)
                .withCallerWindowSeconds(600));
        McpSyncClient alice = client(http, ALICE);
        McpSyncClient root = client(http, ROOT);
        call(alice, "collect_assets", Map.of("provider", "aws", "account", sim.estate().aws().management().id(),
                "region", "us-east-1", "service", "vpc"));
        time.advance(Duration.ofSeconds(60));
        McpError e = refusedBy(() -> call(alice, "map_inventory", Map.of("force", true)));
        JsonNode d = data(e);
        assertThat(d.path("reason").asText()).isEqualTo("quota");
        assertThat(d.path("limit").asText()).isEqualTo("live_caller_max_operations");
        assertThat(d.path("retry_after_seconds").asLong()).isEqualTo(540);
        assertThat(d.path("use_dataset").asText()).startsWith("ds-");
        assertThat(json(call(alice, "rate_limit_status", Map.of())).path("guard").path("caller")
                .path("started_in_window").asInt()).isEqualTo(1);
        assertThat(json(call(root, "map_inventory", Map.of())).path("dataset").path("kind").asText())
                .as("the quota is per principal").isEqualTo("map");
    }

    @Test
    void anOperationPastItsTimeoutIsCancelledAndFreesItsScope() throws Exception {
        CloudgMcp.HttpEndpoint http = server(l -> l.withOperationTimeoutSeconds(900));
        McpSyncClient alice = client(http, ALICE);
        McpSyncClient root = client(http, ROOT);
        gate.close();
        CompletableFuture<McpSchema.CallToolResult> stuck = Threads.async(() ->
                call(alice, "map_inventory", Map.of()));
        gate.awaitEntered(1);
        time.advance(Duration.ofSeconds(900));
        McpSchema.CallToolResult r = stuck.get(60, TimeUnit.SECONDS);
        assertThat(r.isError()).isTrue();
        assertThat(json(r).path("state").asText()).isEqualTo("timed_out");
        assertThat(json(r).path("error").asText()).contains("live_operation_timeout_seconds (900 s)");
        JsonNode guard = json(call(root, "rate_limit_status", Map.of())).path("guard");
        assertThat(guard.path("in_flight")).isEmpty();
        assertThat(guard.path("cooldowns").get(0).path("scope").asText()).isEqualTo("aws");
        gate.open();
        JsonNode forced = json(call(root, "map_inventory", Map.of("force", true)));
        assertThat(forced.path("dataset").path("complete").asBoolean()).as("the scope was free again").isTrue();
        assertThat(json(call(root, "list_datasets", Map.of())).path("total").asInt())
                .as("the cancelled run saved nothing").isEqualTo(1);
    }

    @Test
    void rateLimitStatusAndTheResourceShowCooldownsAndTheGovernorWithoutACloudCall() {
        CloudgMcp.HttpEndpoint http = server(l -> l);
        McpSyncClient alice = client(http, ALICE);
        call(alice, "collect_assets", Map.of("provider", "aws", "account", sim.estate().aws().management().id(),
                "region", "global", "service", "iam_users"));
        long callsBefore = governor.report().totals().calls();
        JsonNode s = json(call(alice, "rate_limit_status", Map.of()));
        JsonNode resource = Json.MAPPER.valueToTree(Map.of());
        try {
            String text = ((McpSchema.TextResourceContents) alice.readResource(McpSchema.ReadResourceRequest.builder(
                    CloudgMcp.RATELIMIT_URI).build()).contents().get(0)).text();
            resource = Json.MAPPER.readTree(text);
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
        assertThat(governor.report().totals().calls()).as("no API call for the status").isEqualTo(callsBefore);
        for (JsonNode status : List.of(s, resource)) {
            JsonNode g = status.path("guard");
            assertThat(g.path("store").asText()).isEqualTo("memory");
            assertThat(g.path("cooldowns")).hasSize(1);
            assertThat(g.path("cooldowns").get(0).path("scope").asText()).isEqualTo("aws");
            assertThat(g.path("cooldowns").get(0).path("remaining_seconds").asLong()).isEqualTo(120);
            assertThat(g.path("limits").path("live_max_concurrent_total").asInt()).isEqualTo(2);
            assertThat(g.path("caller").path("principal").asText()).isEqualTo("alice");
            assertThat(g.path("caller").path("may_force").asBoolean()).isTrue();
            assertThat(status.path("governor").path("store").asText()).isEqualTo("memory");
            assertThat(status.path("governor").path("throttling").path("totals").path("calls").asLong()).isPositive();
        }
    }

    @Test
    void collectAssetsCollectsExactlyOneSlice() {
        CloudgMcp.HttpEndpoint http = server(l -> l);
        McpSyncClient alice = client(http, ALICE);
        String member = sim.estate().aws().accounts().stream().filter(a -> !a.management()).findFirst().orElseThrow().id();
        JsonNode r = json(call(alice, "collect_assets", Map.of("provider", "aws", "account", member, "region", "eu-west-1",
                "service", "subnets")));
        JsonNode ds = r.path("dataset");
        assertThat(ds.path("kind").asText()).isEqualTo("slice");
        assertThat(ds.path("slice").path("account").asText()).isEqualTo(member);
        Set<String> truth = sim.truth().ids("aws", member, "eu-west-1", "AWS::EC2::Subnet");
        assertThat(ds.path("asset_count").asLong()).isEqualTo(truth.size());
        Set<String> got = new TreeSet<>();
        json(call(alice, "query_assets", Map.of("dataset", ds.path("id").asText()))).path("assets").forEach(a -> {
            assertThat(a.path("account_id").asText()).isEqualTo(member);
            assertThat(a.path("region").asText()).isEqualTo("eu-west-1");
            got.add(a.path("id").asText());
        });
        assertThat(got).isEqualTo(truth);
        McpError wrong = refusedBy(() -> call(alice, "collect_assets", Map.of("provider", "aws", "account", member,
                "region", "us-east-1", "service", "iam_users")));
        assertThat(wrong.getJsonRpcError().code()).isEqualTo(McpSchema.ErrorCodes.INVALID_PARAMS);
        assertThat(wrong.getMessage()).contains("iam_users is a global service");
    }

    /** A server whose viewer {@code bot} ({@code tok-bot}) may make two calls a minute. */
    private CloudgMcp.HttpEndpoint serverWithABotOfTwoCallsAMinute() {
        CloudGConfig config = McpTestKit.config(sim, dir, RateLimitConfig.defaults()).build();
        CloudgMcp mcp = CloudgMcp.builder(config).mcp(McpTestKit.mcp(dir).withPrincipal(
                        new io.cloudg.mcp.config.McpSettings.PrincipalSpec("bot", List.of("viewer"), "tok-bot", null, 2)))
                .governor(governor).time(time).build();
        open.add(mcp);
        CloudgMcp.HttpEndpoint http = mcp.serveHttp();
        open.add(http);
        return http;
    }

    @Test
    void aPrincipalsCallsPerMinuteAreCappedWithTheirOwnErrorWhateverTheTool() throws Exception {
        CloudgMcp.HttpEndpoint http = serverWithABotOfTwoCallsAMinute();
        McpSyncClient bot = client(http, "tok-bot");
        McpTestKit.call(bot, "rate_limit_status", Map.of());
        McpTestKit.call(bot, "list_datasets", Map.of());
        McpError e = refusedBy(() -> McpTestKit.call(bot, "rate_limit_status", Map.of()));
        assertThat(e.getJsonRpcError().code()).isEqualTo(-31032);
        Map<?, ?> data = (Map<?, ?>) e.getJsonRpcError().data();
        assertThat(data.get("reason")).isEqualTo("rate_limited");
        assertThat(data.get("limit")).isEqualTo(2);
        assertThat(((Number) data.get("retry_after_seconds")).doubleValue()).as("a token every 30 s").isCloseTo(30.0,
                org.assertj.core.api.Assertions.within(0.2));
        McpTestKit.call(client(http, McpTestKit.VIC), "rate_limit_status", Map.of());
        time.advance(java.time.Duration.ofSeconds(30));
        McpTestKit.call(bot, "rate_limit_status", Map.of());
    }
    @Test
    void aViewerMayNotRunLiveToolsSoItCannotCoolAScopeDownForEveryoneElse() {
        CloudgMcp.HttpEndpoint http = server(l -> l);
        McpSyncClient vic = client(http, VIC);
        String account = sim.estate().aws().management().id();
        for (Map.Entry<String, Map<String, Object>> c : Map.<String, Map<String, Object>>of("map_inventory", Map.of(),
                "collect_assets", Map.of("provider", "aws", "account", account, "region", "us-east-1", "service", "vpc"),
                "run_scanners", Map.of(), "run_pipeline", Map.of("force", true)).entrySet()) {
            McpError e = refusedBy(() -> call(vic, c.getKey(), c.getValue()));
            assertThat(e.getJsonRpcError().code()).as(c.getKey()).isEqualTo(-31033);
            JsonNode d = data(e);
            assertThat(d.path("reason").asText()).isEqualTo("forbidden");
            assertThat(d.path("tool").asText()).isEqualTo(c.getKey());
            assertThat(d.path("principal").asText()).isEqualTo("vic");
            assertThat(d.path("required_roles")).extracting(JsonNode::asText).containsExactly("admin", "operator");
            assertThat(e.getMessage()).contains(c.getKey() + " calls the cloud", "needs the admin or operator role",
                    "mcp.live_roles", "vic has viewer");
        }
        assertThat(gate.calls).as("nothing ran").hasValue(0);
        JsonNode status = json(call(vic, "rate_limit_status", Map.of())).path("guard");
        assertThat(status.path("cooldowns")).as("no scope cools down").isEmpty();
        assertThat(status.path("caller").path("may_run_live").asBoolean()).isFalse();
        assertThat(status.path("caller").path("may_force").asBoolean()).isFalse();
        assertThat(json(call(vic, "list_datasets", Map.of())).path("total").asInt()).as("read tools still serve it").isZero();
        JsonNode mapped = json(call(client(http, ROOT), "map_inventory", Map.of()));
        assertThat(mapped.path("dataset").path("complete").asBoolean()).as("the admin is not blocked").isTrue();
    }

    @Test
    void whoMayRunLiveToolsIsConfigurablePerRoleAndPerPrincipal() {
        CloudgMcp.HttpEndpoint http = server(l -> l.withCooldownSeconds(0), m -> m.withLiveRoles(List.of("admin"))
                .withPrincipal(new io.cloudg.mcp.config.McpSettings.PrincipalSpec("auditor", List.of("viewer"),
                        "tok-auditor", null, null, true))
                .withPrincipal(new io.cloudg.mcp.config.McpSettings.PrincipalSpec("readonly-admin", List.of("admin"),
                        "tok-readonly-admin", null, null, false)));
        McpError operator = refusedBy(() -> call(client(http, ALICE), "map_inventory", Map.of()));
        assertThat(operator.getJsonRpcError().code()).isEqualTo(-31033);
        assertThat(operator.getMessage()).contains("needs the admin role (mcp.live_roles); alice has operator");
        McpError denied = refusedBy(() -> call(client(http, "tok-readonly-admin"), "map_inventory", Map.of()));
        assertThat(denied.getMessage()).contains("mcp.principals.readonly-admin.live_tools is false");
        assertThat(json(call(client(http, "tok-auditor"), "map_inventory", Map.of())).path("dataset").path("principal")
                .asText()).as("live_tools: true lets a viewer map").isEqualTo("auditor");
        assertThat(json(call(client(http, ROOT), "map_inventory", Map.of())).path("dataset").path("principal").asText())
                .isEqualTo("root");
    }

    @Test
    void readingTheRatelimitResourceCountsAgainstCallsPerMinute() {
        McpSyncClient bot = client(serverWithABotOfTwoCallsAMinute(), "tok-bot");
        McpSchema.ReadResourceRequest read = McpSchema.ReadResourceRequest.builder(CloudgMcp.RATELIMIT_URI).build();
        bot.readResource(read);
        McpTestKit.call(bot, "list_datasets", Map.of());
        McpError e = refusedBy(() -> bot.readResource(read));
        assertThat(e.getJsonRpcError().code()).isEqualTo(-31032);
        assertThat(e.getMessage()).contains("bot made more than 2 call(s) in a minute");
        time.advance(java.time.Duration.ofSeconds(30));
        assertThat(bot.readResource(read).contents()).hasSize(1);
    }
}
