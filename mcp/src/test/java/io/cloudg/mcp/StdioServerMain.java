package io.cloudg.mcp;

import io.cloudg.CloudGConfig;
import io.cloudg.config.ConfigFile;
import io.cloudg.mcp.config.McpSettings;
import io.cloudg.InventoryResult;
import io.cloudg.mcp.guard.GuardListener;
import io.cloudg.mcp.guard.LiveCall;
import io.cloudg.mcp.guard.Principal;
import io.cloudg.mcp.live.CollectSpec;
import io.cloudg.mcp.live.Collector;
import io.cloudg.mcp.live.EmbeddedCollector;
import io.cloudg.resilience.Governor;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.file.Path;

/**
 * The MCP server as its own process on stdio, for {@link McpStdioEndToEndTest}: {@code cloudg mcp}'s
 * server with two test hooks. Each collection first connects to the test's gate port and waits for one
 * byte (the test learns that an operation entered when it accepts, and releases it by writing); the guard's
 * decisions are printed on stderr as {@code EVENT <what> <operation>} lines.
 *
 * <p>Arguments: the cloudg YAML, the gate port.
 */
public final class StdioServerMain {
    private StdioServerMain() {
    }

    public static void main(String[] args) throws Exception {
        ConfigFile file = ConfigFile.load(Path.of(args[0]));
        CloudGConfig config = CloudGConfig.from(file);
        McpSettings mcpSettings = McpSettings.from(file);
        int gatePort = Integer.parseInt(args[1]);
        Governor governor = Governor.builder().config(config.ratelimit()).build();
        Collector real = new EmbeddedCollector(config, governor);
        Collector gated = (CollectSpec spec, Path out) -> {
            try (Socket s = new Socket("127.0.0.1", gatePort); InputStream in = s.getInputStream()) {
                if (in.read() < 0) {
                    throw new IllegalStateException("the test closed the gate without releasing it");
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            InventoryResult r = real.collect(spec, out);
            return r;
        };
        GuardListener events = new GuardListener() {
            @Override
            public void started(String id, LiveCall call, Principal p, boolean forced) {
                System.err.println("EVENT started " + id);
            }

            @Override
            public void joined(String id, LiveCall call, Principal p) {
                System.err.println("EVENT joined " + id);
            }
        };
        try (CloudgMcp mcp = CloudgMcp.builder(config).mcp(mcpSettings).governor(governor).collector(gated).listener(events).build()) {
            mcp.runStdio(System.in, System.out);
        }
        System.exit(0);
    }
}
