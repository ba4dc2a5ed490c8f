package io.cloudg.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line end to end, in process: exit codes, messages, the map file. */
class MapCommandTest {
    @TempDir
    Path dir;

    /** Every map these commands write matches docs/schema/inventory-map.schema.json. */
    @org.junit.jupiter.api.AfterEach
    void mapsMatchTheSchema() {
        io.cloudg.testkit.MapSchema.assertEveryMapValid(dir);
    }

    record Run(int code, String out, String err) {
    }

    static synchronized Run run(String... args) {
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            int code = Main.run(args);
            return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
    }

    @Test
    void mapsTheDemoEstateAndExitsZero() throws Exception {
        Run r = run("map", "--sim", "-p", "aws", "--out", dir.toString(), "--no-progress");
        assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.OK);
        assertThat(r.out()).contains("Mapped ", " 0 PARTIAL, 0 FAILED", "Map: ");
        JsonNode map = new ObjectMapper().readTree(dir.resolve("inventory-map.json").toFile());
        assertThat(map.get("format").asText()).isEqualTo("cloudg.inventory-map/1");
        assertThat(map.get("assets").size()).isEqualTo(map.get("summary").get("assets").asInt()).isPositive();
        assertThat(map.has("throttling")).isFalse();
        assertThat(map.get("coverage").size()).isPositive();
    }

    /** {@code map --sim -p aws} of {@code collectors} with SQS denied, after {@code before} (say --log-format json). */
    Run mapWithSqsDenied(String collectors, String... before) throws Exception {
        Path faults = dir.resolve("faults.yaml");
        Files.writeString(faults, "faults: [{match: {provider: aws, service: sqs}, error: access_denied}]\n");
        Path config = dir.resolve("cloudg.yaml");
        Files.writeString(config, "aws: {collectors: [" + collectors + "], cloudcontrol_sweep: false, tagging_sweep: false}\n");
        java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of(before));
        args.addAll(java.util.List.of("map", "--sim", "-p", "aws", "--sim-faults", faults.toString(), "--config",
                config.toString(), "--out", dir.toString(), "--no-progress"));
        return run(args.toArray(String[]::new));
    }

    @Test
    void incompleteCoverageExitsThree() throws Exception {
        Run r = mapWithSqsDenied("sqs_queues, vpc");
        assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.INCOMPLETE);
        assertThat(r.out()).contains("FAILED aws/", "sqs_queues: AccessDenied");
    }

    @Test
    void aMapWhoseRunCannotBeKeptIsWrittenWhereItCanAndExitsFour() throws Exception {
        Path config = dir.resolve("cloudg.yaml");
        Files.writeString(config, "aws: {collectors: [vpc], cloudcontrol_sweep: false, tagging_sweep: false}\n");
        Path out = dir.resolve("out");
        Files.createDirectories(out);
        Files.writeString(out.resolve("runs"), "in the way\n"); // as root too: nothing can be written under a file
        Run r = run("map", "--sim", "-p", "aws", "--config", config.toString(), "--out", out.toString(), "--no-progress");

        assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.NOT_WRITTEN);
        assertThat(r.out()).contains("NOT written as asked: the run could not be kept under " + out.resolve("runs"),
                ": Not a directory", "; the map is in " + out.resolve("inventory-map.json"),
                "Map: " + out.resolve("inventory-map.json").toAbsolutePath());
        assertThat(new ObjectMapper().readTree(out.resolve("inventory-map.json").toFile()).at("/summary/assets").asLong())
                .isPositive();
        try (java.util.stream.Stream<Path> files = Files.list(out)) {
            assertThat(files.map(p -> p.getFileName().toString()))
                    .as("the map's three files, and no spool or temporary file")
                    .containsExactlyInAnyOrder("runs", "inventory-map.json", "assets.jsonl", "coverage.jsonl");
        }
    }

    @Test
    void anOutputDirectoryThatCannotBeMadeIsOneLineWithTheSystemsReasonOnce() throws Exception {
        Path file = Files.writeString(dir.resolve("a-file"), "x");
        String line = StartupFailuresTest.cannotStart(StartupFailuresTest.args("map", "--sim", "-p", "aws", "--out",
                file.resolve("out").toString(), "--no-progress"), "cannot create a temporary file in " + file.resolve("out"));
        assertThat(line).endsWith(": Not a directory");
    }

    @Test
    void badInputCannotStartAndSaysWhy() throws Exception {
        Run none = run("map", "--out", dir.toString(), "--no-progress");
        assertThat(none.code()).isEqualTo(ExitCodes.CANNOT_START);
        assertThat(none.err()).contains("no provider to map");

        Run missing = run("map", "-p", "aws", "--config", dir.resolve("nope.yaml").toString());
        assertThat(missing.code()).isEqualTo(ExitCodes.CANNOT_START);
        assertThat(missing.err()).contains("--config must be an existing file", "nope.yaml");

        Run region = run("map", "--sim", "-p", "aws", "--regions", "us-east-1,mars-north-9x", "--out", dir.toString());
        assertThat(region.code()).isEqualTo(ExitCodes.CANNOT_START);
        assertThat(region.err()).contains("aws.regions entry must be a region like us-east-1, but was \"mars-north-9x\"");

        Path bad = dir.resolve("bad.yaml");
        Files.writeString(bad, "aws: {max_retries: ten}\n");
        Run value = run("map", "-p", "aws", "--config", bad.toString());
        assertThat(value.code()).isEqualTo(ExitCodes.CANNOT_START);
        assertThat(value.err()).contains("aws.max_retries must be an integer, but was \"ten\"");

        Run provider = run("map", "-p", "oracle");
        assertThat(provider.code()).isEqualTo(ExitCodes.CANNOT_START);
        assertThat(provider.err()).contains("providers entry must be one of aws, azure, gcp, but was \"oracle\"");

        Run flag = run("map", "--regionz", "all");
        assertThat(flag.code()).isEqualTo(ExitCodes.CANNOT_START);
        assertThat(flag.err()).contains("--regionz");
    }

    @Test
    void unknownConfigKeysAreWarnedAboutAndIgnored() throws Exception {
        Path config = dir.resolve("cloudg.yaml");
        Files.writeString(config, "ratelimit: {aws: {max_rpss: 3}}\naws: {collectors: [vpc], cloudcontrol_sweep: false, "
                + "tagging_sweep: false}\n");
        Run r = run("map", "--sim", "-p", "aws", "--config", config.toString(), "--out", dir.toString(), "--no-progress");
        assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.OK);
        assertThat(r.err()).contains("WARN cloudg.config: Unknown config key ratelimit.aws.max_rpss is ignored");
    }

    static java.util.List<JsonNode> jsonLines(String stderr) throws Exception {
        java.util.List<JsonNode> out = new java.util.ArrayList<>();
        for (String line : stderr.split("\n")) {
            if (line.isEmpty()) {
                continue;
            }
            JsonNode n;
            try {
                n = new ObjectMapper().readTree(line);
            } catch (Exception e) {
                throw new AssertionError("a stderr line that is not JSON: " + line, e);
            }
            assertThat(n.isObject()).as(line).isTrue();
            assertThat(n.get("@timestamp").asText()).as(line).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z");
            assertThat(n.get("log.level").asText()).as(line).isIn("TRACE", "DEBUG", "INFO", "WARN", "ERROR");
            assertThat(n.has("message")).as(line).isTrue();
            out.add(n);
        }
        return out;
    }

    @Test
    void withJsonLogsEveryStderrLineIsAnObjectTheSummaryIsOneEventAndStdoutStaysEmpty() throws Exception {
        Run r = mapWithSqsDenied("sqs_queues, vpc", "--log-format", "json");
        assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.INCOMPLETE);
        assertThat(r.out()).as("stdout stays for data").isEmpty();
        java.util.List<JsonNode> lines = jsonLines(r.err());

        java.util.List<JsonNode> summaries = lines.stream().filter(n -> n.path("event.action").asText().equals("map-finished"))
                .toList();
        assertThat(summaries).as(r.err()).hasSize(1);
        JsonNode summary = summaries.get(0);
        assertThat(summary.get("log.logger").asText()).isEqualTo("cloudg.summary");
        assertThat(summary.get("log.level").asText()).as("not every entry SUCCESS").isEqualTo("WARN");
        assertThat(summary.get("message").asText()).startsWith("Mapped ").contains(" FAILED");
        assertThat(summary.get("exit_code").asInt()).isEqualTo(ExitCodes.INCOMPLETE);
        assertThat(summary.get("run_id").asText()).isNotEmpty();
        assertThat(summary.get("assets").asLong()).isPositive();
        assertThat(summary.at("/coverage/FAILED").asInt()).isPositive();
        assertThat(summary.at("/providers/aws/accounts").asInt()).isPositive();
        assertThat(summary.get("not_success_total").asInt()).isEqualTo(summary.at("/coverage/FAILED").asInt()
                + summary.at("/coverage/PARTIAL").asInt());
        JsonNode first = summary.get("not_success").get(0);
        assertThat(first.get("collector").asText()).isEqualTo("sqs_queues");
        assertThat(first.get("status").asText()).isEqualTo("FAILED");
        assertThat(first.get("error").asText()).contains("AccessDenied");
        assertThat(first.get("account").asText()).isNotEmpty();
        assertThat(summary.get("map").asText()).isEqualTo(dir.resolve("inventory-map.json").toAbsolutePath().toString());

        java.util.List<JsonNode> failed = lines.stream().filter(n -> n.get("log.logger").asText().equals("cloudg.task")).toList();
        assertThat(failed).as("a FAILED collector is a WARN with its reason, inside its task: %s", r.err()).isNotEmpty()
                .allSatisfy(n -> {
                    assertThat(n.get("log.level").asText()).isEqualTo("WARN");
                    assertThat(n.get("message").asText()).startsWith("collector sqs_queues FAILED in aws/").contains("AccessDenied");
                    assertThat(n.get("collector").asText()).isEqualTo("sqs_queues");
                    assertThat(n.get("status").asText()).isEqualTo("FAILED");
                    for (String field : new String[] {"run_id", "task_id", "provider", "account", "region"}) {
                        assertThat(n.path(field).asText()).as("%s of %s", field, n).isNotEmpty();
                    }
                });
        assertThat(failed).hasSize(summary.at("/coverage/FAILED").asInt());
    }

    @Test
    void inTextTheLevelIsSpeltAsInJsonAndAFailedCollectorIsAWarning() throws Exception {
        Run r = mapWithSqsDenied("sqs_queues");
        assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.INCOMPLETE);
        assertThat(r.err()).contains(" WARN cloudg.task: collector sqs_queues FAILED in aws/").doesNotContain("WARNING");
        assertThat(r.out()).as("the closing lines, in text, on stdout").contains("Mapped ", "Map: ");
    }

    @Test
    void withJsonLogsAStartThatFailsIsOneJsonLine() throws Exception {
        Run region = run("--log-format", "json", "map", "--sim", "-p", "aws", "--regions", "us-east-1,mars-north-9x",
                "--out", dir.toString());
        assertThat(region.code()).isEqualTo(ExitCodes.CANNOT_START);
        assertThat(jsonLines(region.err())).singleElement().satisfies(n -> {
            assertThat(n.get("log.level").asText()).isEqualTo("ERROR");
            assertThat(n.get("message").asText()).contains("mars-north-9x");
        });
        Run flag = run("map", "--log-format=json", "--regionz", "x");
        assertThat(flag.code()).isEqualTo(ExitCodes.CANNOT_START);
        assertThat(jsonLines(flag.err())).singleElement().satisfies(n ->
                assertThat(n.get("message").asText()).contains("--regionz"));
    }
}
