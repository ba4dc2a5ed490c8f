package io.cloudg.cli.log;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cloudg.collect.LogContext;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Text and JSON lines, timestamps, the run and task context, levels, and other libraries kept quiet. */
class LogSetupTest {
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    final ConsoleLine console = new ConsoleLine(() -> new PrintStream(bytes, true, StandardCharsets.UTF_8));
    final Logger cloudg = LoggerFactory.getLogger("cloudg.map");
    final Logger azure = LoggerFactory.getLogger("com.azure.core.implementation.AccessTokenCache");
    final Logger msal = LoggerFactory.getLogger("com.microsoft.aad.msal4j.ConfidentialClientApplication");
    final Logger kafka = LoggerFactory.getLogger("org.apache.kafka.clients.NetworkClient");

    @AfterEach
    void restore() {
        LogSetup.apply(LogSetup.Format.text, LogSetup.LogLevel.info, ConsoleLine.stderr());
        LogSetup.started();
    }

    List<String> lines() {
        String s = bytes.toString(StandardCharsets.UTF_8);
        return s.isEmpty() ? List.of() : List.of(s.split("\n"));
    }

    @Test
    void textLinesHaveATimestampTheLevelTheLoggerAndTheTaskContext() {
        LogSetup.apply(LogSetup.Format.text, LogSetup.LogLevel.info, console);
        LogSetup.started();
        cloudg.info("planned");
        try (LogContext c = LogContext.bind(Map.of(LogContext.RUN_ID, "r1", LogContext.TASK_ID, "aws/1/us-east-1"))) {
            cloudg.warn("throttled");
        }
        assertThat(lines()).hasSize(2);
        assertThat(lines().get(0)).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z INFO cloudg\\.map: planned");
        assertThat(lines().get(1)).matches(".*Z WARN cloudg\\.map: throttled \\{.*\\}")
                .contains("run_id=r1", "task_id=aws/1/us-east-1");
    }

    @Test
    void jsonLinesFollowEcsTimestampLevelMessageLoggerAndTheMdcAsFields() throws Exception {
        LogSetup.apply(LogSetup.Format.json, LogSetup.LogLevel.info, console);
        LogSetup.started();
        try (LogContext c = LogContext.bind(Map.of(LogContext.RUN_ID, "r2", LogContext.TASK_ID, "aws/1/eu-west-1",
                LogContext.PROVIDER, "aws", LogContext.ACCOUNT, "123456789012", LogContext.REGION, "eu-west-1"))) {
            cloudg.info("mapped {} assets", 42);
            cloudg.warn("throttled");
        }
        cloudg.error("failed", new IllegalStateException("boom"));
        List<String> lines = lines();
        assertThat(lines).hasSize(3);
        JsonNode first = new ObjectMapper().readTree(lines.get(0));
        assertThat(java.time.Instant.parse(first.get("@timestamp").asText())).isNotNull();
        assertThat(first.get("@timestamp").asText()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z");
        assertThat(first.get("log.level").asText()).isEqualTo("INFO");
        assertThat(first.get("message").asText()).isEqualTo("mapped 42 assets");
        assertThat(first.get("log.logger").asText()).isEqualTo("cloudg.map");
        assertThat(first.get("ecs.version").asText()).isEqualTo(EcsEncoder.ECS_VERSION);
        assertThat(first.get("service.name").asText()).isEqualTo("cloudg");
        assertThat(first.get("process.thread.name").asText()).isEqualTo(Thread.currentThread().getName());
        assertThat(first.get("run_id").asText()).isEqualTo("r2");
        assertThat(first.get("task_id").asText()).isEqualTo("aws/1/eu-west-1");
        assertThat(first.get("account").asText()).isEqualTo("123456789012");
        assertThat(first.get("region").asText()).isEqualTo("eu-west-1");
        assertThat(new ObjectMapper().readTree(lines.get(1)).get("log.level").asText())
                .as("the level names of the text format").isEqualTo("WARN");
        JsonNode third = new ObjectMapper().readTree(lines.get(2));
        assertThat(third.has("run_id")).as("outside the task, no task fields").isFalse();
        assertThat(third.get("error.type").asText()).isEqualTo("java.lang.IllegalStateException");
        assertThat(third.get("error.message").asText()).isEqualTo("boom");
        assertThat(third.get("error.stack_trace").asText()).contains("IllegalStateException: boom", "at io.cloudg.cli.log");
    }

    record Counted(long jobs, String status) {
    }

    @Test
    void keyValuePairsAreTypedJsonFieldsAndTheTextLineIsTheMessage() throws Exception {
        LogSetup.apply(LogSetup.Format.json, LogSetup.LogLevel.info, console);
        LogSetup.started();
        cloudg.atInfo().setMessage("task ended").addKeyValue("jobs", 12).addKeyValue("status", "PARTIAL")
                .addKeyValue("summary", Map.of("assets", 7)).addKeyValue("counted", new Counted(3, "SUCCESS"))
                .addKeyValue("message", "not twice").log();
        JsonNode line = new ObjectMapper().readTree(lines().get(0));
        assertThat(line.get("message").asText()).isEqualTo("task ended");
        assertThat(line.get("jobs").isNumber()).isTrue();
        assertThat(line.get("jobs").asInt()).isEqualTo(12);
        assertThat(line.get("status").asText()).isEqualTo("PARTIAL");
        assertThat(line.at("/summary/assets").asInt()).isEqualTo(7);
        assertThat(line.at("/counted/jobs").asInt()).isEqualTo(3);

        bytes.reset();
        LogSetup.apply(LogSetup.Format.text, LogSetup.LogLevel.info, console);
        LogSetup.started();
        cloudg.atInfo().setMessage("task ended").addKeyValue("jobs", 12).log();
        assertThat(lines()).singleElement().asString().endsWith("INFO cloudg.map: task ended");
    }

    @Test
    void theSummaryIsWrittenAtEveryLevel() throws Exception {
        LogSetup.apply(LogSetup.Format.json, LogSetup.LogLevel.error, console);
        LogSetup.started();
        cloudg.info("hidden");
        LoggerFactory.getLogger(LogSetup.SUMMARY_LOGGER).info("Mapped 3 assets");
        assertThat(lines()).singleElement().satisfies(l -> assertThat(new ObjectMapper().readTree(l).get("message")
                .asText()).isEqualTo("Mapped 3 assets"));
        assertThat(LogSetup.json()).isTrue();
    }

    @Test
    void aNoticeOutsideTheLoggerIsOneEcsLine() throws Exception {
        String line = new String(EcsEncoder.line(java.time.Instant.parse("2026-12-05T09:14:03.217Z"), "ERROR",
                "cannot start: bad key", "cloudg", new IllegalArgumentException("x")), StandardCharsets.UTF_8);
        assertThat(line).endsWith("}\n").doesNotContain("\n\t");
        JsonNode n = new ObjectMapper().readTree(line);
        assertThat(n.get("@timestamp").asText()).isEqualTo("2026-12-05T09:14:03.217Z");
        assertThat(n.get("message").asText()).isEqualTo("cannot start: bad key");
        assertThat(n.get("error.type").asText()).isEqualTo("java.lang.IllegalArgumentException");
    }

    @Test
    void otherLibrariesAreSilentUnlessDebugging() {
        LogSetup.apply(LogSetup.Format.text, LogSetup.LogLevel.info, console);
        LogSetup.started();
        azure.error("Failed to acquire a new access token");
        msal.warn("[Correlation ID: x] Execution of class ... failed");
        kafka.warn("Connection to node -1 could not be established");
        cloudg.error("cloudg's own line");
        assertThat(lines()).singleElement().asString().endsWith("ERROR cloudg.map: cloudg's own line");
        bytes.reset();
        LogSetup.apply(LogSetup.Format.text, LogSetup.LogLevel.debug, console);
        LogSetup.started();
        azure.error("Failed to acquire a new access token");
        kafka.info("not at debug: only their warnings and errors");
        cloudg.debug("cloudg's debug line");
        assertThat(lines()).hasSize(2);
        assertThat(lines().get(0)).contains("ERROR com.azure.core.implementation.AccessTokenCache: Failed");
        assertThat(lines().get(1)).contains("DEBUG cloudg.map: cloudg's debug line");
    }

    @Test
    void theLevelCutsCloudgsOwnLines() {
        LogSetup.apply(LogSetup.Format.text, LogSetup.LogLevel.warn, console);
        LogSetup.started();
        cloudg.info("hidden");
        cloudg.warn("shown");
        assertThat(lines()).singleElement().asString().endsWith("WARN cloudg.map: shown");
    }

    @Test
    void linesWaitUntilTheCommandStartedAndAreDroppedIfItCouldNot() {
        LogSetup.apply(LogSetup.Format.text, LogSetup.LogLevel.info, console);
        cloudg.info("3 learned rate(s) from the state file");
        try (LogContext c = LogContext.bind(Map.of(LogContext.RUN_ID, "r3"))) {
            cloudg.warn("Unknown config key x is ignored");
        }
        assertThat(lines()).as("held while the command starts").isEmpty();
        LogSetup.started();
        assertThat(lines()).hasSize(2);
        assertThat(lines().get(0)).endsWith("INFO cloudg.map: 3 learned rate(s) from the state file");
        assertThat(lines().get(1)).as("with the context it was logged in").contains("run_id=r3");
        cloudg.info("mapping");
        assertThat(lines()).as("once started, as they come").hasSize(3);

        bytes.reset();
        LogSetup.apply(LogSetup.Format.text, LogSetup.LogLevel.info, console);
        cloudg.info("cloud-sim started");
        cloudg.warn("Unknown config key y is ignored");
        assertThat(LogSetup.failedToStart()).containsExactly("Unknown config key y is ignored");
        cloudg.info("learned rates kept");
        LogSetup.started();
        assertThat(lines()).as("a command that could not start prints none of its log lines").isEmpty();
    }

    @Test
    void debuggingWritesEveryLineAsItComes() {
        LogSetup.apply(LogSetup.Format.text, LogSetup.LogLevel.debug, console);
        cloudg.info("at once");
        assertThat(lines()).singleElement().asString().endsWith("INFO cloudg.map: at once");
    }

    @Test
    void aStartThatLogsALotIsRunning() {
        LogSetup.apply(LogSetup.Format.text, LogSetup.LogLevel.info, console);
        for (int i = 0; i <= StartupGate.MAX_HELD; i++) {
            cloudg.info("line {}", i);
        }
        assertThat(lines()).as("past the limit the held lines are written").hasSize(StartupGate.MAX_HELD + 1);
        assertThat(lines().get(0)).endsWith("line 0");
    }

    @Test
    void levelNamesAreReadAsUsersWriteThem() {
        assertThat(LogSetup.LogLevel.parse("WARNING")).isEqualTo(LogSetup.LogLevel.warn);
        assertThat(LogSetup.LogLevel.parse(" Debug ")).isEqualTo(LogSetup.LogLevel.debug);
        assertThat(LogSetup.LogLevel.parse("loud")).isNull();
    }
}
