package io.cloudg.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The checks of {@link JsonRpcMessages}, without a server. */
class JsonRpcMessagesTest {
    private static JsonRpcMessages.Checked check(String body) {
        return JsonRpcMessages.check(body.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void oneRequestNotificationOrResponsePasses() {
        for (String ok : new String[] {"{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"ping\"}",
                "{\"jsonrpc\": \"2.0\", \"id\": \"a\", \"method\": \"tools/call\", \"params\": {\"name\": \"x\"}}",
                "{\"jsonrpc\": \"2.0\", \"method\": \"notifications/initialized\"}",
                "{\"jsonrpc\": \"2.0\", \"id\": 4, \"result\": {}}",
                "{\"jsonrpc\": \"2.0\", \"id\": 5, \"error\": {\"code\": 1, \"message\": \"m\"}}"}) {
            JsonRpcMessages.Checked c = check(ok);
            assertThat(c.refusal()).as(ok).isNull();
            assertThat(new String(c.body(), StandardCharsets.UTF_8)).isEqualTo(ok);
        }
    }

    @Test
    void eachProblemHasItsCodeAndOneLine() {
        assertThat(check("{\"jsonrpc\": \"2.0\",\n \"id\": 1,\n bad}").refusal()).satisfies(r -> {
            assertThat(r.code()).isEqualTo(McpSchema.ErrorCodes.PARSE_ERROR);
            assertThat(r.message()).endsWith("(line 3, column 2)").doesNotContain("\n", "Source");
        });
        assertThat(check("{\"jsonrpc\": \"1.0\", \"id\": 1, \"method\": \"ping\"}").refusal().message())
                .isEqualTo("invalid request: \"jsonrpc\" must be \"2.0\", but was \"1.0\"");
        assertThat(check("{\"jsonrpc\": \"2.0\", \"id\": 1.5, \"method\": \"ping\"}").refusal().code())
                .isEqualTo(McpSchema.ErrorCodes.INVALID_REQUEST);
        assertThat(check("{\"jsonrpc\": \"2.0\", \"id\": 1, \"result\": {}, \"error\": {}}").refusal()).isNotNull();
        assertThat(check("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"" + "m".repeat(500) + "\", \"params\": 1}")
                .refusal().message()).hasSizeLessThan(200).endsWith("but was 1");
        assertThat(JsonRpcMessages.contentType("Application/JSON; charset=UTF-8")).isNull();
        assertThat(JsonRpcMessages.contentType("application/jsonx").status()).isEqualTo(415);
        assertThat(JsonRpcMessages.tooLarge(2_000_000).status()).isEqualTo(413);
    }

    @Test
    void aSerializedSdkExceptionIsReducedToItsMessage() throws Exception {
        McpError e = McpError.builder(McpSchema.ErrorCodes.INVALID_REQUEST).message("Session not found: abc").build();
        String written = Json.MCP.writeValueAsString(e);
        assertThat(written).as("what the SDK writes").contains("stackTrace");
        assertThat(JsonRpcMessages.transportMessage(written)).isEqualTo("Session not found: abc");
        assertThat(JsonRpcMessages.transportMessage("<html>oops</html>")).isNull();
        JsonRpcMessages.Refusal r = JsonRpcMessages.transportError(503, null);
        assertThat(r.code()).isEqualTo(McpSchema.ErrorCodes.INTERNAL_ERROR);
        assertThat(r.message()).isEqualTo("the server is shutting down");
        assertThat(JsonRpcMessages.internal(new RuntimeException("outer", new IllegalStateException("line one\nline two")))
                .message()).isEqualTo("internal error: IllegalStateException: line one");
    }
}
