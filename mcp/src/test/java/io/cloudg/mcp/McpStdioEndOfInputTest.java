package io.cloudg.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import com.fasterxml.jackson.databind.JsonNode;
import io.cloudg.CloudGConfig;
import io.cloudg.mcp.guard.GuardSnapshot;
import io.cloudg.mcp.guard.GuardStore;
import io.cloudg.mcp.guard.InMemoryGuardStore;
import io.cloudg.mcp.guard.ScopeCooldown;
import io.cloudg.mcp.guard.StartDecision;
import io.cloudg.mcp.guard.StartRequest;
import io.cloudg.mcp.live.EmbeddedCollector;
import io.cloudg.resilience.Governor;
import io.cloudg.resilience.config.RateLimitConfig;
import io.cloudg.resilience.time.ManualTimeSource;
import io.cloudg.sim.CloudSim;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * A client that pipes its requests into {@code cloudg mcp} and closes stdin gets an answer to every request it
 * sent: at the end of the input the server waits for the calls in flight (at most
 * {@code live_operation_timeout_seconds} + 30 s on the server's clock), says in a warning line which it gave up
 * on, and only then ends. The SDK's transport alone stops writing as soon as its input ends.
 */
class McpStdioEndOfInputTest {
    static final String INITIALIZE = McpStdioErrorsTest.INITIALIZE;
    static final String INITIALIZED = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}";
    /** A hang in the test: never a measure of anything. */
    static final long HANG_SECONDS = 120;

    static CloudSim sim;
    static Governor governor;

    @TempDir
    Path dir;
    final ManualTimeSource time = new ManualTimeSource();
    final Lines log = new Lines();

    @BeforeAll
    static void startSim() {
        sim = McpTestKit.startSim();
        governor = Governor.builder().config(RateLimitConfig.defaults()).build();
    }

    @AfterAll
    static void stopSim() {
        governor.close();
        sim.close();
    }

    @BeforeEach
    void captureLog() {
        log.start();
        ((Logger) LoggerFactory.getLogger("cloudg.mcp")).addAppender(log);
    }

    @AfterEach
    void releaseLog() {
        ((Logger) LoggerFactory.getLogger("cloudg.mcp")).detachAppender(log);
    }

    @Test
    void everyRequestReadBeforeTheEndOfTheInputIsAnsweredThenTheServerEnds() throws Exception {
        CloudGConfig config = McpTestKit.config(sim, dir, RateLimitConfig.defaults()).build();
        McpTestKit.GatedCollector gate = new McpTestKit.GatedCollector(new EmbeddedCollector(config, governor));
        gate.close();
        String in = String.join("\n", INITIALIZE, INITIALIZED,
                "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}",
                call("3", "rate_limit_status"),
                call("\"four\"", "map_inventory"),
                call("5", "list_datasets"),
                "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"ping\"}") + "\n";
        Replies out = new Replies();
        try (CloudgMcp mcp = CloudgMcp.builder(config).mcp(McpTestKit.mcp(dir)).governor(governor).time(time)
                .collector(gate).build()) {
            CompletableFuture<Void> served = serve(mcp, in, out);
            gate.awaitEntered(1); // the live call is in flight; the input has ended
            gate.open();
            served.get(HANG_SECONDS, TimeUnit.SECONDS);
        }

        Map<String, JsonNode> byId = out.byId();
        assertThat(byId.keySet()).containsExactlyInAnyOrder("1", "2", "3", "\"four\"", "5", "6");
        assertThat(byId.values()).allSatisfy(r -> assertThat(r.has("error")).as("%s", r).isFalse());
        assertThat(byId.get("2").path("result").path("tools")).hasSize(9);
        JsonNode mapped = byId.get("\"four\"").path("result");
        assertThat(mapped.path("isError").asBoolean(false)).as("%s", mapped).isFalse();
        assertThat(mapped.path("structuredContent").path("dataset").path("asset_count").asLong()).isPositive();
        assertThat(log.messages()).anyMatch(m -> m.contains("stdin ended with")).noneMatch(m -> m.contains("abandoned"));
    }

    @Test
    void aCallStillUnansweredAtTheBoundIsAbandonedAndNamedInAWarning() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        GuardStore hung = new HungStore(new InMemoryGuardStore(time), entered, release); // a guard store that never answers
        CloudGConfig config = McpTestKit.config(sim, dir, RateLimitConfig.defaults()).build();
        String in = String.join("\n", INITIALIZE, INITIALIZED,
                "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}",
                call("3", "map_inventory")) + "\n";
        Replies out = new Replies();
        try (CloudgMcp mcp = CloudgMcp.builder(config).mcp(McpTestKit.mcp(dir)).governor(governor).time(time)
                .guardStore(hung).collector((spec, o) -> {
                    throw new AssertionError("the guard never lets this call start");
                }).build()) {
            CompletableFuture<Void> served = serve(mcp, in, out);
            try {
                assertThat(entered.await(HANG_SECONDS, TimeUnit.SECONDS)).isTrue();
                String waiting = log.await("stdin ended with");
                assertThat(waiting).contains("request(s) in flight", "waiting at most 3630 s");
                out.awaitLines(2); // initialize and tools/list answered: only the call is left
                time.advance(Duration.ofSeconds(3629));
                assertThat(served).as("the bound has not passed").isNotDone();
                time.advance(Duration.ofSeconds(1));
                served.get(HANG_SECONDS, TimeUnit.SECONDS);
            } finally {
                release.countDown();
            }
        }
        assertThat(out.byId().keySet()).containsExactlyInAnyOrder("1", "2");
        assertThat(log.messages()).contains("stdin ended: abandoned 1 request(s) still unanswered after 3630 s: "
                + "id 3 (tools/call map_inventory)");
    }

    private static String call(String id, String tool) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
                + "\",\"arguments\":{}}}";
    }

    /** {@link CloudgMcp#runStdio} on a thread of its own over {@code in}, which ends after its last line. */
    private static CompletableFuture<Void> serve(CloudgMcp mcp, String in, OutputStream out) {
        CompletableFuture<Void> served = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                mcp.runStdio(new ByteArrayInputStream(in.getBytes(StandardCharsets.UTF_8)), out);
                served.complete(null);
            } catch (Throwable e) {
                served.completeExceptionally(e);
            }
        }, "runStdio");
        t.setDaemon(true);
        t.start();
        return served;
    }

    /** What the server wrote on stdout. */
    static final class Replies extends OutputStream {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        @Override
        public synchronized void write(int b) {
            bytes.write(b);
            notifyAll();
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) {
            bytes.write(b, off, len);
            notifyAll();
        }

        /** Waits until {@code n} whole lines have been written. */
        synchronized void awaitLines(int n) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(HANG_SECONDS);
            while (toString().chars().filter(c -> c == '\n').count() < n) {
                long left = deadline - System.nanoTime();
                assertThat(left).as("%d lines written within %d s: %s", n, HANG_SECONDS, this).isPositive();
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
        }

        /** Each response by its id's JSON text. */
        synchronized Map<String, JsonNode> byId() throws IOException {
            Map<String, JsonNode> all = new HashMap<>();
            for (String line : bytes.toString(StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank()) {
                    JsonNode n = Json.MAPPER.readTree(line);
                    assertThat(all.put(n.path("id").toString(), n)).as("one answer per id: %s", line).isNull();
                }
            }
            return all;
        }

        @Override
        public synchronized String toString() {
            return bytes.toString(StandardCharsets.UTF_8);
        }
    }

    /** The log lines of {@code cloudg.mcp}, to wait on. */
    static final class Lines extends AppenderBase<ILoggingEvent> {
        private final BlockingQueue<String> arrived = new LinkedBlockingQueue<>();
        private final List<String> all = new java.util.concurrent.CopyOnWriteArrayList<>();

        @Override
        protected void append(ILoggingEvent e) {
            all.add(e.getFormattedMessage());
            arrived.add(e.getFormattedMessage());
        }

        List<String> messages() {
            return all;
        }

        String await(String part) throws InterruptedException {
            for (String m; (m = arrived.poll(HANG_SECONDS, TimeUnit.SECONDS)) != null; ) {
                if (m.contains(part)) {
                    return m;
                }
            }
            throw new AssertionError("no log line with \"" + part + "\": " + all);
        }
    }

    /** A guard store whose {@code tryStart} hangs until released, as a store that stopped answering. */
    record HungStore(GuardStore store, CountDownLatch entered, CountDownLatch release) implements GuardStore {
        @Override
        public StartDecision tryStart(StartRequest request) {
            entered.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            throw new IllegalStateException("the test is over");
        }

        @Override
        public boolean renew(String operationId, long leaseMillis) {
            return store.renew(operationId, leaseMillis);
        }

        @Override
        public void finish(String operationId, List<ScopeCooldown> cooldowns) {
            store.finish(operationId, cooldowns);
        }

        @Override
        public GuardSnapshot snapshot(String principal, long callerWindowMillis) {
            return store.snapshot(principal, callerWindowMillis);
        }

        @Override
        public String describe() {
            return "hung";
        }
    }
}
