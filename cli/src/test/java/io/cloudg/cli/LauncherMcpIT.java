package io.cloudg.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code cloudg mcp} through the launcher as built, as an agent's client starts it: over stdio (initialize,
 * tools/list, a live tool call that maps the simulated estate) and over streamable HTTP with docs/mcp.md's
 * configuration as written (401 without a token, a tool call with one, SIGTERM ends it with 0). Raw JSON-RPC, so
 * that nothing on the test class path stands in for what the launcher loads.
 */
class LauncherMcpIT {
    static final ObjectMapper JSON = new ObjectMapper();
    static final String PROTOCOL = "2025-06-18";

    static ObjectNode request(int id, String method, Object params) {
        ObjectNode r = JSON.createObjectNode().put("jsonrpc", "2.0");
        if (id > 0) {
            r.put("id", id);
        }
        r.put("method", method);
        if (params != null) {
            r.set("params", JSON.valueToTree(params));
        }
        return r;
    }

    static Map<String, Object> initializeParams() {
        return Map.of("protocolVersion", PROTOCOL, "capabilities", Map.of(),
                "clientInfo", Map.of("name", "launcher-it", "version", "1"));
    }

    // ------------------------------------------------------------------ stdio

    @Test
    void stdioAnswersInitializeListsTheToolsAndMapsTheSimulatedEstate() throws Exception {
        Path dir = Launcher.workDir("mcp-stdio");
        Files.writeString(dir.resolve("cloudg.yaml"), """
                providers: [aws]
                aws: {regions: [us-east-1], collectors: [vpc, subnets]}
                """);
        try (Launcher.Running mcp = Launcher.start(dir, Map.of(), "mcp", "--config", "cloudg.yaml", "--sim",
                "--dataset-dir", "datasets")) {
            Stdio session = new Stdio(mcp);
            JsonNode init = session.call(1, "initialize", initializeParams());
            assertThat(init.path("result").path("serverInfo").path("name").asText()).as(init.toString()).isEqualTo("cloudg");
            assertThat(init.path("result").path("protocolVersion").asText()).isEqualTo(PROTOCOL);
            session.send(request(0, "notifications/initialized", null));

            JsonNode tools = session.call(2, "tools/list", Map.of());
            assertThat(tools.path("result").path("tools").findValuesAsText("name")).as(tools.toString())
                    .containsExactlyInAnyOrder("map_inventory", "collect_assets", "run_scanners", "run_pipeline",
                            "rate_limit_status", "list_datasets", "get_dataset", "query_assets", "scan_dataset");

            JsonNode mapped = session.call(3, "tools/call", Map.of("name", "map_inventory", "arguments", Map.of()));
            JsonNode result = mapped.path("result");
            assertThat(result.path("isError").asBoolean(false)).as(mapped.toString()).isFalse();
            JsonNode dataset = result.path("structuredContent").path("dataset");
            assertThat(dataset.path("asset_count").asLong()).as(mapped.toString()).isPositive();
            assertThat(dataset.path("principal").asText()).isEqualTo(System.getProperty("user.name"));
            assertThat(dir.resolve("datasets").resolve(dataset.path("id").asText()).resolve("inventory-map.json"))
                    .isRegularFile();

            JsonNode listed = session.call(4, "tools/call", Map.of("name", "list_datasets", "arguments", Map.of()));
            assertThat(listed.path("result").path("structuredContent").toString()).as(listed.toString())
                    .contains(dataset.path("id").asText());

            mcp.stdin().close(); // the client went away: the server ends
            Launcher.Result end = mcp.await(Launcher.HANG).exits(0);
            assertThat(end.err()).contains("MCP server ready over stdio");
        }
    }

    @Test
    void stdioAnswersEveryRequestPipedInBeforeTheEndOfItsInputThenExits0() throws Exception {
        Path dir = Launcher.workDir("mcp-stdio-piped");
        try (Launcher.Running mcp = Launcher.start(dir, Map.of(), "mcp", "--sim", "--dataset-dir", "datasets")) {
            // as `printf '...' | cloudg mcp --sim`: every request written at once, then the end of the input
            StringBuilder piped = new StringBuilder();
            for (JsonNode m : List.of(request(1, "initialize", initializeParams()), request(0, "notifications/initialized", null),
                    request(2, "tools/list", Map.of()),
                    request(3, "tools/call", Map.of("name", "rate_limit_status", "arguments", Map.of())),
                    request(4, "tools/call", Map.of("name", "list_datasets", "arguments", Map.of())))) {
                piped.append(JSON.writeValueAsString(m)).append('\n');
            }
            mcp.stdin().write(piped.toString().getBytes(StandardCharsets.UTF_8));
            mcp.stdin().close();
            Launcher.Result end = mcp.await(Launcher.HANG).exits(0);
            List<JsonNode> replies = end.out().lines().map(l -> {
                try {
                    return JSON.readTree(l);
                } catch (Exception e) {
                    throw new AssertionError("not JSON on stdout: " + l, e);
                }
            }).toList();
            assertThat(replies.stream().map(r -> r.path("id").asInt()).toList()).as(end.out())
                    .containsExactlyInAnyOrder(1, 2, 3, 4);
            assertThat(replies).allSatisfy(r -> assertThat(r.has("error")).as("%s", r).isFalse());
            assertThat(end.err()).doesNotContain("abandoned");
        }
    }

    /** Newline-delimited JSON-RPC over the process's stdin and stdout. */
    static final class Stdio {
        final Launcher.Running process;
        int read;

        Stdio(Launcher.Running process) {
            this.process = process;
        }

        void send(JsonNode message) throws Exception {
            process.stdin().write((JSON.writeValueAsString(message) + "\n").getBytes(StandardCharsets.UTF_8));
            process.stdin().flush();
        }

        /** Sends a request and returns the response with its id (notifications in between are skipped). */
        JsonNode call(int id, String method, Object params) throws Exception {
            send(request(id, method, params));
            Launcher.Found f = process.out.awaitLine(Pattern.compile("\"id\"\\s*:\\s*" + id + "\\b"), read, Launcher.HANG);
            assertThat(f).as("no answer to %s (id %d); the server is %s%nstdout:%n%s%nstderr:%n%s", method, id,
                    process.process.isAlive() ? "running" : "gone, exit " + process.process.exitValue(),
                    process.out.text(), process.err.text()).isNotNull();
            read = f.next();
            JsonNode response = JSON.readTree(f.line());
            assertThat(response.has("error")).as("%s answered an error: %s", method, response).isFalse();
            return response;
        }
    }

    // ------------------------------------------------------------------ streamable HTTP

    @Test
    void httpWithTheDocumentedConfigurationRefusesNoTokenAndServesABearer() throws Exception {
        Path dir = Launcher.workDir("mcp-http");
        Files.writeString(dir.resolve("cloudg.yaml"), documentedConfiguration());
        String token = UUID.randomUUID().toString();
        // both variables the documented configuration names, as its curl session exports them
        try (Launcher.Running mcp = Launcher.start(dir, Map.of("CLOUDG_MCP_TOKEN_CI", token, "CLOUDG_MCP_TOKEN_AUDIT",
                UUID.randomUUID().toString()), "mcp", "--config",
                "cloudg.yaml", "--http", "--port", "0", "--sim", "--dataset-dir", "datasets")) {
            URI uri = URI.create(mcp.expectLine(mcp.err, Pattern.compile("^cloudg: MCP at (http://\\S+)$"), Launcher.HANG)
                    .group(1));
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(30)).build();

            HttpResponse<String> anonymous = http.send(post(uri, null, null, request(1, "initialize", initializeParams())),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(anonymous.statusCode()).as(anonymous.body()).isEqualTo(401);
            assertThat(anonymous.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(v -> assertThat(v).startsWith("Bearer"));

            HttpResponse<String> init = http.send(post(uri, token, null, request(1, "initialize", initializeParams())),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(init.statusCode()).as(init.body()).isEqualTo(200);
            assertThat(message(init).path("result").path("serverInfo").path("name").asText()).isEqualTo("cloudg");
            String session = init.headers().firstValue("Mcp-Session-Id").orElse(null);
            assertThat(session).as("the initialize response names the session").isNotBlank();

            HttpResponse<String> initialized = http.send(post(uri, token, session, request(0, "notifications/initialized", null)),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(initialized.statusCode()).as(initialized.body()).isBetween(200, 299);

            HttpResponse<String> status = http.send(post(uri, token, session, request(2, "tools/call",
                    Map.of("name", "rate_limit_status", "arguments", Map.of()))), HttpResponse.BodyHandlers.ofString());
            assertThat(status.statusCode()).as(status.body()).isEqualTo(200);
            JsonNode result = message(status).path("result");
            assertThat(result.path("isError").asBoolean(false)).as(status.body()).isFalse();
            assertThat(result.path("structuredContent").isObject()).as(status.body()).isTrue();

            Launcher.Result end = mcp.stop().exits(0);
            assertThat(end.out()).as("over HTTP, stdout is not the protocol and stays quiet").isEmpty();
        }
    }

    // ------------------------------------------------------------------ failures at start

    static final String HTTP_CONFIG =
            "mcp: {stdio_principal: ci, principals: {ci: {roles: [operator], token: 0123456789abcdef0123}}}\n";

    @Test
    void httpOnAPortInUseIsOneLineAndExitCode2() throws Exception {
        Path dir = Launcher.workDir("mcp-http-port-in-use");
        Files.writeString(dir.resolve("cloudg.yaml"), HTTP_CONFIG);
        try (java.net.ServerSocket busy = new java.net.ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
            int port = busy.getLocalPort();
            Launcher.Result r = Launcher.run(dir, "mcp", "--config", "cloudg.yaml", "--http", "--port", Integer.toString(port))
                    .exits(2);
            assertThat(r.err().strip()).isEqualTo("cloudg: cannot serve MCP on 127.0.0.1:" + port + ": port " + port
                    + " is in use: set --port or mcp.http.port");
            assertThat(r.out()).isEmpty();
        }
    }

    /**
     * The defect of issue 35 itself, kept from coming back in another form: a class missing from the launcher's
     * class path is an internal error (exit 1, with its stack trace for the report), and the process ends even
     * though the HTTP transport has started a thread that is not a daemon. The distribution here is the one built,
     * linked file by file, without json-schema-validator.
     */
    @Test
    void aClassMissingAtRuntimeIsAnInternalErrorAndTheProcessEnds() throws Exception {
        Path dist = Launcher.workDir("dist-without-json-schema-validator");
        Path lib = Files.createDirectories(dist.resolve("cli/target/lib"));
        Files.copy(Launcher.CLOUDG, dist.resolve("cloudg"), java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
        Files.createSymbolicLink(dist.resolve("cli/target/cloudg-cli.jar"), Launcher.ROOT.resolve("cli/target/cloudg-cli.jar"));
        int linked = 0;
        try (var jars = Files.list(Launcher.ROOT.resolve("cli/target/lib"))) {
            for (Path jar : jars.toList()) {
                if (!jar.getFileName().toString().startsWith("json-schema-validator-")) {
                    Files.createSymbolicLink(lib.resolve(jar.getFileName()), jar);
                    linked++;
                }
            }
        }
        assertThat(linked).isPositive();
        Path dir = Launcher.workDir("mcp-missing-class");
        Files.writeString(dir.resolve("cloudg.yaml"), HTTP_CONFIG);
        for (List<String> args : List.of(List.of("mcp", "--config", "cloudg.yaml", "--http", "--port", "0"),
                List.of("mcp", "--config", "cloudg.yaml"))) {
            ProcessBuilder pb = Launcher.builder(dir, Map.of(), args);
            pb.command().set(0, dist.resolve("cloudg").toString());
            try (Launcher.Running mcp = new Launcher.Running(String.join(" ", args) + " (json-schema-validator missing)",
                    pb.start())) {
                mcp.stdin().close();
                Launcher.Result r = mcp.await(Launcher.HANG);
                assertThat(r.exit()).as("%s%n%s", r.command(), r.err()).isEqualTo(1);
                assertThat(r.err()).contains("cloudg: internal error: java.lang.NoClassDefFoundError: com/networknt/schema/")
                        .doesNotContain("Exception in thread \"main\"");
                assertThat(r.out()).isEmpty();
            }
        }
    }

    /** docs/mcp.md's configuration block, as a user copies it. */
    static String documentedConfiguration() throws Exception {
        return DocsTest.blocks(Launcher.ROOT.resolve("docs/mcp.md")).stream()
                .filter(b -> b.lang().equals("yaml") && b.text().contains("principals:") && b.text().contains("token_env"))
                .findFirst().orElseThrow(() -> new AssertionError("docs/mcp.md has no configuration example with principals"))
                .text();
    }

    static HttpRequest post(URI uri, String token, String session, JsonNode body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(Launcher.HANG)
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        if (session != null) {
            b.header("Mcp-Session-Id", session);
        }
        return b.build();
    }

    /** The JSON-RPC message of a response: its body, or the data of its server-sent event. */
    static JsonNode message(HttpResponse<String> response) throws Exception {
        String type = response.headers().firstValue("Content-Type").orElse("");
        if (!type.startsWith("text/event-stream")) {
            return JSON.readTree(response.body());
        }
        List<String> data = response.body().lines().filter(l -> l.startsWith("data:")).map(l -> l.substring(5).strip()).toList();
        assertThat(data).as(response.body()).isNotEmpty();
        return JSON.readTree(data.get(data.size() - 1));
    }
}
