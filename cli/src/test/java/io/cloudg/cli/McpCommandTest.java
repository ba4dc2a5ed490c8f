package io.cloudg.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cloudg.resilience.testkit.Threads;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code cloudg mcp} as its own process, with the MCP SDK's clients: stdio and streamable HTTP on --sim. */
class McpCommandTest {
    static final JacksonMcpJsonMapper JSON = new JacksonMcpJsonMapper(new ObjectMapper());

    @TempDir
    Path dir;

    /** Every map (dataset) the server writes matches docs/schema/inventory-map.schema.json. */
    @org.junit.jupiter.api.AfterEach
    void mapsMatchTheSchema() {
        io.cloudg.testkit.MapSchema.assertEveryMapValid(dir);
    }

    private Path config() throws Exception {
        Path config = dir.resolve("cloudg.yaml");
        Files.writeString(config, """
                providers: [aws]
                aws: {regions: [us-east-1], collectors: [vpc, iam_users], cloudcontrol_sweep: false, tagging_sweep: false}
                mcp:
                  dataset_dir: %s
                  stdio_principal: ops
                  principals:
                    ops: {roles: [operator], token: ops-token-for-tests}
                """.formatted(dir.resolve("datasets")));
        return config;
    }

    private static List<String> command(String... args) {
        List<String> cmd = new java.util.ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "-XX:TieredStopAtLevel=1", Main.class.getName(), "mcp"));
        cmd.addAll(List.of(args));
        return cmd;
    }

    @Test
    void stdioServesTheToolsAsTheConfiguredLocalPrincipal() throws Exception {
        List<String> cmd = command("--sim", "--config", config().toString());
        StdioClientTransport t = new StdioClientTransport(ServerParameters.builder(cmd.get(0))
                .args(cmd.subList(1, cmd.size())).build(), JSON);
        McpSyncClient c = McpClient.sync(t).requestTimeout(Duration.ofSeconds(120))
                .initializationTimeout(Duration.ofSeconds(120)).build(); // a cold JVM with a sim, beside a loaded build
        try {
            c.initialize();
            assertThat(c.getServerInfo().name()).isEqualTo("cloudg");
            assertThat(c.listTools().tools()).hasSize(9);
            McpSchema.CallToolResult result = c.callTool(McpSchema.CallToolRequest.builder("map_inventory").arguments(Map.of()).build());
            JsonNode map = new ObjectMapper().valueToTree(result.structuredContent());
            assertThat(map.path("dataset").path("principal").asText()).as(result.toString()).isEqualTo("ops");
            assertThat(map.path("dataset").path("asset_count").asLong()).isPositive();
            assertThat(Files.isRegularFile(dir.resolve("datasets").resolve(map.path("dataset").path("id").asText())
                    .resolve("inventory-map.json"))).isTrue();
            try {
                c.callTool(McpSchema.CallToolRequest.builder("map_inventory").arguments(Map.of()).build());
                throw new AssertionError("the second map was not refused");
            } catch (McpError e) {
                assertThat(e.getJsonRpcError().code()).isEqualTo(-31029);
            }
        } finally {
            c.closeGracefully();
        }
    }

    @Test
    void httpServesOnTheAnnouncedPortWithBearerTokens() throws Exception {
        Process p = new ProcessBuilder(command("--sim", "--http", "--port", "0", "--config", config().toString())).start();
        try {
            BufferedReader err = new BufferedReader(new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8));
            URI uri = Threads.async(() -> {
                try {
                    for (String line = err.readLine(); line != null; line = err.readLine()) {
                        if (line.startsWith("cloudg: MCP at ")) {
                            return URI.create(line.substring("cloudg: MCP at ".length()).trim());
                        }
                    }
                    throw new AssertionError("cloudg mcp --http ended without announcing its address");
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).get(60, TimeUnit.SECONDS);
            assertThat(uri.getPath()).isEqualTo("/mcp");
            McpSyncClient c = McpClient.sync(HttpClientStreamableHttpTransport.builder("http://" + uri.getRawAuthority())
                    .endpoint(uri.getPath()).jsonMapper(JSON)
                    .requestBuilder(java.net.http.HttpRequest.newBuilder().header("Authorization", "Bearer ops-token-for-tests"))
                    .build()).requestTimeout(Duration.ofSeconds(60)).build();
            try {
                c.initialize();
                JsonNode status = new ObjectMapper().valueToTree(c.callTool(McpSchema.CallToolRequest.builder(
                        "rate_limit_status").arguments(Map.of()).build()).structuredContent());
                assertThat(status.path("guard").path("caller").path("principal").asText()).isEqualTo("ops");
                assertThat(status.path("guard").path("in_flight")).isEmpty();
            } finally {
                c.closeGracefully();
            }
        } finally {
            p.destroy();
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("SIGTERM stops it").isTrue();
            assertThat(p.exitValue()).as("a clean stop exits 0, as the help says").isZero();
        }
    }

    @Test
    void beyondLoopbackItRefusesShortTokensAndWarnsOnceAboutPlainHttp() throws Exception {
        Path shortTokens = dir.resolve("short.yaml");
        Files.writeString(shortTokens, "mcp: {principals: {ops: {roles: [operator], token: ops-token-for-tests},"
                + " grafana: {roles: [viewer], token: short}}}\n");
        MapCommandTest.Run refused = MapCommandTest.run("mcp", "--http", "--host", "0.0.0.0", "--sim", "--config",
                shortTokens.toString());
        assertThat(refused.code()).isEqualTo(ExitCodes.CANNOT_START);
        assertThat(refused.err().strip()).as("one line").doesNotContain("\n")
                .startsWith("cloudg: mcp.principals.grafana.token: the token has 5 characters, too short")
                .contains("at least 16").doesNotContain("cloud-sim started");
        assertThat(MapCommandTest.run("mcp", "--http", "--host", "0.0.0.0:1", "--config", shortTokens.toString()).err())
                .contains("--host must be an IP address or a host name");

        Process p = new ProcessBuilder(command("--http", "--host", "0.0.0.0", "--port", "0", "--config",
                config().toString())).start();
        try {
            BufferedReader err = new BufferedReader(new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8));
            List<String> lines = Threads.async(() -> {
                List<String> seen = new java.util.ArrayList<>();
                try {
                    for (String line = err.readLine(); line != null; line = err.readLine()) {
                        seen.add(line);
                        if (line.startsWith("cloudg: MCP at ")) {
                            return seen;
                        }
                    }
                    throw new AssertionError("cloudg mcp --http ended without announcing its address: " + seen);
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).get(60, TimeUnit.SECONDS);
            assertThat(lines).filteredOn(l -> l.contains("plain HTTP")).singleElement().asString()
                    .contains("0.0.0.0", "mcp.http.host is not a loopback address", "TLS");
        } finally {
            p.destroy();
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        }
    }

    @Test
    void aStdioUserThatIsNotConfiguredCannotStart(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path config = dir.resolve("cloudg.yaml");
        java.nio.file.Files.writeString(config, "mcp: {principals: {someone-else: {roles: [viewer]}}}\n");
        MapCommandTest.Run r = MapCommandTest.run("mcp", "--sim", "--config", config.toString());
        assertThat(r.code()).isEqualTo(ExitCodes.CANNOT_START);
        assertThat(r.err()).contains("mcp.stdio_principal: the stdio user", "is not among mcp.principals")
                .as("refused before the sim starts").doesNotContain("cloud-sim started");
        MapCommandTest.Run http = MapCommandTest.run("mcp", "--http", "--sim");
        assertThat(http.code()).isEqualTo(ExitCodes.CANNOT_START);
        assertThat(http.err()).contains("mcp.principals: no principal has a token");
    }
}
