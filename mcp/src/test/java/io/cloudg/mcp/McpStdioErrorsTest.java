package io.cloudg.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.cloudg.CloudGConfig;
import io.cloudg.resilience.Governor;
import io.cloudg.resilience.config.RateLimitConfig;
import io.cloudg.resilience.testkit.Threads;
import io.modelcontextprotocol.server.McpSyncServer;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.Pipe;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Over stdio a line that is not one JSON-RPC message is answered with a JSON-RPC error and the session goes
 * on (the SDK's transport alone stops reading at such a line and never answers again).
 */
class McpStdioErrorsTest {
    static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
            + "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";

    @TempDir
    Path dir;

    @Test
    void badLinesAreAnsweredAndTheSessionGoesOn() throws Exception {
        try (Governor governor = Governor.builder().config(RateLimitConfig.defaults()).build();
             CloudgMcp mcp = CloudgMcp.builder(CloudGConfig.builder().providers("aws").outputDir(dir).build())
                     .mcp(McpTestKit.mcp(dir)).governor(governor).collector((spec, out) -> {
                         throw new AssertionError("no live call in this test");
                     }).build()) {
            // nio pipes: unlike java.io's piped streams they do not care which threads read and write
            Pipe in = Pipe.open();
            Pipe out = Pipe.open();
            OutputStream toServer = Channels.newOutputStream(in.sink());
            McpSyncServer server = mcp.serveStdio(Channels.newInputStream(in.source()), Channels.newOutputStream(out.sink()));
            BufferedReader replies = new BufferedReader(new InputStreamReader(Channels.newInputStream(out.source()),
                    StandardCharsets.UTF_8));
            try {
                send(toServer, "{bad");
                JsonNode parse = next(replies);
                assertThat(parse.path("error").path("code").asInt()).isEqualTo(-32700);
                assertThat(parse.path("id").isNull()).isTrue();
                send(toServer, "");
                send(toServer, "{\"jsonrpc\":\"1.0\",\"id\":7,\"method\":\"ping\"}");
                JsonNode invalid = next(replies);
                assertThat(invalid.path("error").path("code").asInt()).isEqualTo(-32600);
                assertThat(invalid.path("id").asInt()).isEqualTo(7);
                assertThat(invalid.path("error").path("message").asText()).contains("\"jsonrpc\" must be \"2.0\"");
                send(toServer, "[" + INITIALIZE + "]");
                assertThat(next(replies).path("error").path("message").asText()).contains("batch");

                send(toServer, INITIALIZE);
                JsonNode init = next(replies);
                assertThat(init.path("id").asInt()).as("the session still answers").isEqualTo(1);
                assertThat(init.path("result").path("serverInfo").path("name").asText()).isEqualTo("cloudg");
                send(toServer, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
                send(toServer, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}\r");
                assertThat(next(replies).path("result").path("tools")).hasSize(9);
            } finally {
                toServer.close();
                server.closeGracefully();
            }
        }
    }

    private static void send(OutputStream out, String line) throws Exception {
        out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private static JsonNode next(BufferedReader replies) throws Exception {
        String line = Threads.async(() -> {
            try {
                return replies.readLine();
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }).get(30, TimeUnit.SECONDS);
        assertThat(line).as("a reply").isNotNull().doesNotContain("stackTrace");
        return Json.MAPPER.readTree(line);
    }
}
