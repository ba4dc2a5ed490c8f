package io.cloudg.mcp;

import static io.cloudg.mcp.McpTestKit.ALICE;
import static io.cloudg.mcp.McpTestKit.ROOT;
import static io.cloudg.mcp.McpTestKit.call;
import static io.cloudg.mcp.McpTestKit.data;
import static io.cloudg.mcp.McpTestKit.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.cloudg.CloudGConfig;
import io.cloudg.Governors;
import io.cloudg.mcp.guard.redis.EmbeddedRedis;
import io.cloudg.mcp.live.EmbeddedCollector;
import io.cloudg.resilience.Governor;
import io.cloudg.resilience.config.RateLimitConfig;
import io.cloudg.resilience.config.RedisSettings;
import io.cloudg.resilience.testkit.Threads;
import io.cloudg.resilience.time.ManualTimeSource;
import io.cloudg.sim.CloudSim;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two MCP server replicas configured with {@code ratelimit.backend: redis} on one real redis-server share
 * the guard: while replica A maps a scope, replica B refuses a second map of it (busy), shows A's operation
 * in its status, and after A finishes refuses it for the shared cooldown.
 */
class McpRedisReplicasTest {
    private static CloudSim sim;
    private static EmbeddedRedis redis;

    @TempDir
    Path dir;

    private final List<AutoCloseable> open = new ArrayList<>();

    @BeforeAll
    static void start() {
        sim = McpTestKit.startSim();
        redis = EmbeddedRedis.start();
    }

    @AfterAll
    static void stop() {
        sim.close();
        redis.close();
    }

    @AfterEach
    void closeAll() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
    }

    private record Replica(CloudgMcp mcp, CloudgMcp.HttpEndpoint http, McpTestKit.GatedCollector gate) {
    }

    private Replica replica(RateLimitConfig rl) {
        CloudGConfig config = McpTestKit.config(sim, dir, rl).build();
        Governor governor = Governors.create(rl);
        open.add(governor);
        McpTestKit.GatedCollector gate = new McpTestKit.GatedCollector(new EmbeddedCollector(config, governor));
        CloudgMcp mcp = CloudgMcp.builder(config).mcp(McpTestKit.mcp(dir)).governor(governor).time(new ManualTimeSource()).collector(gate).build();
        open.add(mcp);
        CloudgMcp.HttpEndpoint http = mcp.serveHttp();
        open.add(http);
        return new Replica(mcp, http, gate);
    }

    private McpSyncClient client(Replica r, String token) {
        McpSyncClient c = McpTestKit.http(r.http().uri(), token);
        open.add(c::closeGracefully);
        return c;
    }

    @Test
    void twoReplicasOnOneRedisRefuseASecondConcurrentMapOfTheSameScope() throws Exception {
        RateLimitConfig rl = RateLimitConfig.builder().backend(RateLimitConfig.Backend.REDIS)
                .redis(RedisSettings.builder().url(redis.address()).keyPrefix("mcp-" + UUID.randomUUID()).build()).build();
        Replica a = replica(rl);
        Replica b = replica(rl);
        McpSyncClient onA = client(a, ALICE);
        McpSyncClient onB = client(b, ROOT);

        a.gate().close();
        CompletableFuture<McpSchema.CallToolResult> mapping = Threads.async(() ->
                call(onA, "map_inventory", Map.of()));
        a.gate().awaitEntered(1);

        List<McpError> refused = new ArrayList<>();
        assertThatThrownBy(() -> call(onB, "map_inventory", Map.of("force", true)))
                .isInstanceOfSatisfying(McpError.class, refused::add);
        assertThat(refused.get(0).getJsonRpcError().code()).isEqualTo(-31029);
        JsonNode busy = data(refused.get(0));
        assertThat(busy.path("reason").asText()).as("the identical call on another replica cannot join").isEqualTo("busy");
        assertThat(busy.path("scopes")).extracting(JsonNode::asText).containsExactly("aws");
        assertThat(b.gate().calls).as("replica B called no cloud").hasValue(0);

        JsonNode statusOnB = json(call(onB, "rate_limit_status", Map.of())).path("guard");
        assertThat(statusOnB.path("store").asText()).startsWith("redis " + redis.address());
        assertThat(statusOnB.path("in_flight")).hasSize(1);
        assertThat(statusOnB.path("in_flight").get(0).path("principal").asText()).isEqualTo("alice");
        assertThat(statusOnB.path("in_flight").get(0).path("on_this_server").asBoolean()).isFalse();

        a.gate().open();
        JsonNode done = json(mapping.get(120, TimeUnit.SECONDS));
        assertThat(done.path("dataset").path("complete").asBoolean()).isTrue();

        List<McpError> cooling = new ArrayList<>();
        assertThatThrownBy(() -> call(onB, "map_inventory", Map.of())).isInstanceOfSatisfying(McpError.class, cooling::add);
        JsonNode cd = data(cooling.get(0));
        assertThat(cd.path("reason").asText()).as("the cooldown is shared").isEqualTo("cooldown");
        assertThat(cd.path("retry_after_seconds").asLong()).isBetween(110L, 120L);
        assertThat(cd.path("use_dataset").asText()).as("the replicas share the dataset directory")
                .isEqualTo(done.path("dataset").path("id").asText());
        JsonNode forced = json(call(onB, "map_inventory", Map.of("force", true)));
        assertThat(forced.path("dataset").path("complete").asBoolean()).as("force skips the shared cooldown").isTrue();
    }
}
