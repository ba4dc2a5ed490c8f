package io.cloudg.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.cloudg.CloudGConfig;
import io.cloudg.resilience.Governor;
import io.cloudg.resilience.config.RateLimitConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every error path of the streamable HTTP transport, from an authenticated caller: each answer is one
 * JSON-RPC error object with a short message and the right HTTP status, never a serialized exception.
 */
class McpHttpErrorsTest {
    static final String ACCEPT = "application/json, text/event-stream";
    static final String INITIALIZE = """
            {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18",
             "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}}""";

    @TempDir
    Path dir;

    private final HttpClient client = HttpClient.newHttpClient();
    private Governor governor;
    private CloudgMcp mcp;
    private CloudgMcp.HttpEndpoint http;

    @BeforeEach
    void serve() {
        governor = Governor.builder().config(RateLimitConfig.defaults()).build();
        CloudGConfig config = CloudGConfig.builder().providers("aws").outputDir(dir).build();
        mcp = CloudgMcp.builder(config).mcp(McpTestKit.mcp(dir)).governor(governor)
                .collector((spec, out) -> {
                    throw new AssertionError("no live call in this test");
                }).build();
        http = mcp.serveHttp();
    }

    @AfterEach
    void stop() {
        http.close();
        mcp.close();
        governor.close();
    }

    private HttpRequest.Builder request(URI uri) {
        return HttpRequest.newBuilder(uri).header("Authorization", "Bearer " + McpTestKit.ALICE).header("Accept", ACCEPT);
    }

    private HttpResponse<String> post(String contentType, String body, String session) throws Exception {
        HttpRequest.Builder b = request(http.uri()).header("Content-Type", contentType)
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (session != null) {
            b.header("Mcp-Session-Id", session);
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> send(HttpRequest r) throws Exception {
        return client.send(r, HttpResponse.BodyHandlers.ofString());
    }

    private String session() throws Exception {
        HttpResponse<String> r = post("application/json", INITIALIZE, null);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return r.headers().firstValue("Mcp-Session-Id").orElseThrow();
    }

    /** The answer is one JSON-RPC error with this status and code, a short message, and no stack. */
    private static JsonNode error(HttpResponse<String> r, int status, int code) throws Exception {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
        assertThat(r.headers().firstValue("Content-Type").orElse("")).startsWith("application/json");
        assertThat(r.body()).doesNotContain("stackTrace", "Exception", "\tat ", "<html");
        JsonNode n = Json.MAPPER.readTree(r.body());
        assertThat(n.path("jsonrpc").asText()).isEqualTo("2.0");
        assertThat(n.has("id")).isTrue();
        assertThat(n.path("error").path("code").asInt()).as(r.body()).isEqualTo(code);
        assertThat(n.path("error").path("message").asText()).hasSizeBetween(10, 320).doesNotContain("\n");
        return n;
    }

    @Test
    void aBodyThatIsNotJsonIsAParseError() throws Exception {
        JsonNode e = error(post("application/json", "{bad", session()), 400, -32700);
        assertThat(e.path("error").path("message").asText()).startsWith("parse error: the body is not JSON: ")
                .contains("(line 1, column 2)");
        assertThat(e.path("id").isNull()).isTrue();
        error(post("application/json", "", null), 400, -32700);
        error(post("application/json", "{\"jsonrpc\": \"2.0\", \"method\": \"ping\"} trailing", null), 400, -32700);
    }

    @Test
    void jsonThatIsNotOneJsonRpcMessageIsAnInvalidRequest() throws Exception {
        String s = session();
        assertThat(error(post("application/json", "[{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"ping\"}]", s), 400, -32600)
                .path("error").path("message").asText()).contains("batch");
        assertThat(error(post("application/json", "\"hello\"", s), 400, -32600).path("error").path("message").asText())
                .contains("must be a JSON-RPC message (an object), but was \"hello\"");
        JsonNode noVersion = error(post("application/json", "{\"id\": 7, \"method\": \"tools/list\"}", s), 400, -32600);
        assertThat(noVersion.path("error").path("message").asText()).contains("\"jsonrpc\" must be \"2.0\", but was missing");
        assertThat(noVersion.path("id").asInt()).as("the error answers the request's id").isEqualTo(7);
        assertThat(error(post("application/json", "{\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": 5}", s), 400, -32600)
                .path("error").path("message").asText()).contains("\"method\" must be a non-empty string, but was 5");
        assertThat(error(post("application/json", "{\"jsonrpc\": \"2.0\", \"id\": null, \"method\": \"ping\"}", s), 400,
                -32600).path("error").path("message").asText()).contains("\"id\" must be a string or an integer, but was null");
        assertThat(error(post("application/json", "{\"jsonrpc\": \"2.0\", \"id\": 3, \"method\": \"tools/list\", \"params\": [1]}",
                s), 400, -32600).path("error").path("message").asText()).contains("\"params\" must be an object");
        assertThat(error(post("application/json", "{\"jsonrpc\": \"2.0\", \"id\": 4}", s), 400, -32600)
                .path("error").path("message").asText()).contains("\"result\" or \"error\"");
    }

    @Test
    void anUnknownMethodIsMethodNotFoundInTheStream() throws Exception {
        HttpResponse<String> r = post("application/json", "{\"jsonrpc\": \"2.0\", \"id\": 9, \"method\": \"no/such\"}", session());
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).contains("\"id\":9", "\"code\":-32601", "Method not found: no/such").doesNotContain("stackTrace");
    }

    @Test
    void aWrongContentTypeIs415() throws Exception {
        assertThat(error(post("text/plain", "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"ping\"}", session()), 415, -32600)
                .path("error").path("message").asText()).isEqualTo("Content-Type must be application/json, but was \"text/plain\"");
        HttpResponse<String> none = send(request(http.uri()).POST(HttpRequest.BodyPublishers.ofString(INITIALIZE)).build());
        assertThat(error(none, 415, -32600).path("error").path("message").asText()).endsWith("but was none");
    }

    @Test
    void anOversizedBodyIs413() throws Exception {
        String big = "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"ping\", \"params\": {\"pad\": \""
                + "x".repeat(JsonRpcMessages.MAX_BODY_BYTES) + "\"}}";
        assertThat(error(post("application/json", big, null), 413, -32600).path("error").path("message").asText())
                .startsWith("the body must be at most 1048576 bytes, but was ");
        // no Content-Length (chunked): counted while read
        HttpResponse<String> chunked = send(request(http.uri()).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(
                        big.getBytes(java.nio.charset.StandardCharsets.UTF_8)))).build());
        assertThat(error(chunked, 413, -32600).path("error").path("message").asText()).endsWith("but was longer");
    }

    @Test
    void aWrongHttpMethodIs405WithAllow() throws Exception {
        for (String method : java.util.List.of("PUT", "PATCH", "OPTIONS")) {
            HttpResponse<String> r = send(request(http.uri()).method(method, HttpRequest.BodyPublishers.ofString("{}")).build());
            assertThat(error(r, 405, -32600).path("error").path("message").asText()).contains("HTTP method " + method);
            assertThat(r.headers().firstValue("Allow")).hasValue("POST, GET, DELETE");
        }
    }

    @Test
    void theTransportsOwnErrorsAreRewrittenKeepingTheirStatus() throws Exception {
        String ping = "{\"jsonrpc\": \"2.0\", \"id\": \"p1\", \"method\": \"ping\"}";
        JsonNode noSession = error(post("application/json", ping, null), 400, -32600);
        assertThat(noSession.path("error").path("message").asText()).contains("Session ID required");
        assertThat(noSession.path("id").asText()).isEqualTo("p1");
        assertThat(error(post("application/json", ping, "no-such-session"), 404, -32600).path("error").path("message")
                .asText()).contains("Session not found");
        HttpResponse<String> noAccept = send(HttpRequest.newBuilder(http.uri()).header("Authorization", "Bearer "
                + McpTestKit.ALICE).header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(ping)).build());
        assertThat(error(noAccept, 400, -32600).path("error").path("message").asText()).contains("Accept");
        error(send(request(http.uri()).GET().build()), 400, -32600);
        error(send(request(http.uri()).DELETE().build()), 400, -32600);
        JsonNode elsewhere = error(send(HttpRequest.newBuilder(http.uri().resolve("/elsewhere")).build()), 404, -32600);
        assertThat(elsewhere.path("error").path("message").asText()).contains("/elsewhere", "/mcp");
    }

    @Test
    void withoutAValidTokenItIs401WithTheSameErrorShape() throws Exception {
        HttpResponse<String> none = send(HttpRequest.newBuilder(http.uri()).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{bad")).build());
        assertThat(error(none, 401, -32600).path("error").path("message").asText()).startsWith("missing bearer token");
        assertThat(none.headers().firstValue("WWW-Authenticate")).hasValue("Bearer realm=\"cloudg\"");
        HttpResponse<String> wrong = send(HttpRequest.newBuilder(http.uri()).header("Authorization", "Bearer nope")
                .method("PUT", HttpRequest.BodyPublishers.ofString("{}")).build());
        assertThat(error(wrong, 401, -32600).path("error").path("message").asText()).isEqualTo("unknown bearer token");
    }

    @Test
    void aWellFormedSessionStillWorksThroughTheChecks() throws Exception {
        String s = session();
        assertThat(post("application/json", "{\"jsonrpc\": \"2.0\", \"method\": \"notifications/initialized\"}", s)
                .statusCode()).isEqualTo(202);
        HttpResponse<String> tools = post("application/json; charset=utf-8",
                "{\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": \"tools/list\"}", s);
        assertThat(tools.statusCode()).isEqualTo(200);
        assertThat(tools.body()).contains("map_inventory", "\"id\":2");
        assertThat(send(request(http.uri()).header("Mcp-Session-Id", s).DELETE().build()).statusCode()).isEqualTo(200);
    }
}
