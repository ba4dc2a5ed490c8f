package io.cloudg.mcp;

import static io.cloudg.mcp.McpTestKit.call;
import static io.cloudg.mcp.McpTestKit.data;
import static io.cloudg.mcp.McpTestKit.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.cloudg.resilience.testkit.Threads;
import io.cloudg.sim.CloudSim;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The MCP server as a separate process over stdio ({@link StdioServerMain}, configured by a YAML file),
 * driven by the SDK's stdio client against cloud-sim: the local principal, two identical calls over one
 * session sharing one run, the -31029 cooldown refusal with its dataset, the status, and force.
 */
class McpStdioEndToEndTest {
    @TempDir
    Path dir;

    @Test
    void aStdioSessionIsGuardedLikeHttp() throws Exception {
        try (CloudSim sim = McpTestKit.startSim();
             ServerSocket gate = new ServerSocket(0)) {
            Path config = dir.resolve("cloudg.yaml");
            Files.writeString(config, """
                    providers: [aws]
                    output_dir: %s
                    aws:
                      endpoint_url: %s
                      access_key_id: %s
                      secret_access_key: %s
                      org: true
                      regions: [us-east-1]
                      collectors: [vpc, subnets, iam_users]
                      cloudcontrol_sweep: false
                      tagging_sweep: false
                    mcp:
                      dataset_dir: %s
                      stdio_principal: alice
                      principals:
                        alice: {roles: [operator]}
                        vic: {roles: [viewer], token: not-used-on-stdio}
                    """.formatted(dir, sim.awsEndpoint(), sim.managementCredentials().accessKeyId(),
                    sim.managementCredentials().secretAccessKey(), dir.resolve("datasets")));
            String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            String logback = Path.of(getClass().getResource("stdio-server-logback.xml").toURI()).toString();
            ServerParameters params = ServerParameters.builder(javaBin).args("-cp", System.getProperty("java.class.path"),
                    "-Dlogback.configurationFile=" + logback, "-XX:TieredStopAtLevel=1",
                    StdioServerMain.class.getName(), config.toString(),
                    Integer.toString(gate.getLocalPort())).build();
            StdioClientTransport transport = new StdioClientTransport(params, Json.MCP);
            CountDownLatch joined = new CountDownLatch(1);
            List<String> stderr = java.util.Collections.synchronizedList(new ArrayList<>());
            transport.setStdErrorHandler(line -> {
                stderr.add(line);
                if (line.startsWith("EVENT joined")) {
                    joined.countDown();
                }
            });
            McpSyncClient c = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(120))
                    .initializationTimeout(Duration.ofSeconds(60)).build();
            try {
                c.initialize();
                assertThat(c.listTools().tools()).extracting(McpSchema.Tool::name).contains("map_inventory",
                        "rate_limit_status", "scan_dataset");

                CompletableFuture<McpSchema.CallToolResult> first = Threads.async(() ->
                        call(c, "map_inventory", Map.of()));
                Socket held = accept(gate);
                CompletableFuture<McpSchema.CallToolResult> second = Threads.async(() ->
                        call(c, "map_inventory", Map.of("providers", List.of("aws"))));
                assertThat(joined.await(60, TimeUnit.SECONDS)).as("stderr: " + stderr).isTrue();
                release(held);
                JsonNode a = json(first.get(120, TimeUnit.SECONDS));
                JsonNode b = json(second.get(120, TimeUnit.SECONDS));
                assertThat(List.of(a.path("joined").asBoolean(), b.path("joined").asBoolean())).containsExactlyInAnyOrder(true, false);
                assertThat(b.path("operation_id").asText()).isEqualTo(a.path("operation_id").asText());
                String dataset = a.path("dataset").path("id").asText();
                assertThat(a.path("dataset").path("principal").asText()).isEqualTo("alice");
                assertThat(a.path("dataset").path("asset_count").asLong()).isEqualTo(sim.truth().assets().stream()
                        .filter(x -> (x.region().equals("us-east-1") && (x.type().equals("AWS::EC2::VPC")
                                || x.type().equals("AWS::EC2::Subnet"))) || x.type().equals("AWS::IAM::User")).count());

                List<McpError> refused = new ArrayList<>();
                assertThatThrownBy(() -> call(c, "map_inventory", Map.of())).isInstanceOfSatisfying(McpError.class, refused::add);
                assertThat(refused.get(0).getJsonRpcError().code()).isEqualTo(-31029);
                JsonNode d = data(refused.get(0));
                assertThat(d.path("reason").asText()).isEqualTo("cooldown");
                assertThat(d.path("retry_after_seconds").asLong()).isBetween(100L, 120L);
                assertThat(d.path("use_dataset").asText()).isEqualTo(dataset);

                JsonNode status = json(call(c, "rate_limit_status", Map.of())).path("guard");
                assertThat(status.path("caller").path("principal").asText()).isEqualTo("alice");
                assertThat(status.path("cooldowns").get(0).path("scope").asText()).isEqualTo("aws");

                CompletableFuture<McpSchema.CallToolResult> forced = Threads.async(() ->
                        call(c, "collect_assets", Map.of("provider", "aws", "account", sim.estate().aws().management().id(),
                                "region", "global", "service", "iam_users", "force", true)));
                release(accept(gate));
                JsonNode slice = json(forced.get(120, TimeUnit.SECONDS));
                assertThat(slice.path("dataset").path("kind").asText()).isEqualTo("slice");
                assertThat(slice.path("dataset").path("asset_count").asLong()).isEqualTo(
                        sim.truth().ids("aws", sim.estate().aws().management().id(), "AWS::IAM::User").size());
            } finally {
                c.closeGracefully();
            }
        }
    }

    private static Socket accept(ServerSocket gate) throws IOException {
        gate.setSoTimeout(60_000);
        return gate.accept();
    }

    private static void release(Socket held) throws IOException {
        try (held) {
            held.getOutputStream().write(1);
            held.getOutputStream().flush();
        }
    }
}
