package io.cloudg.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A fleet through the launcher as built: real Kafka and real Redis (servers in this JVM), a standalone
 * {@code ./cloudg sim}, one {@code ./cloudg worker} and {@code ./cloudg map --distributed}; then, on the same
 * governor in Redis, an embedded {@code ./cloudg map} of the estate with DescribeSubnets denied, {@code ./cloudg
 * diff} of the two runs (only the denied subnets differ: every other asset is the same, field for field), and
 * {@code ./cloudg ratelimit show|reset --redis}. The worker ends with 0 on SIGTERM.
 */
class LauncherFleetIT {
    static TestServers servers;

    @BeforeAll
    static void servers() throws Exception {
        servers = TestServers.start();
    }

    @AfterAll
    static void stop() throws Exception {
        if (servers != null) {
            servers.close();
        }
    }

    @Test
    void aWorkerAndADistributedMapThenAnEmbeddedMapTheDiffAndTheGovernorsStateInRedis() throws Exception {
        Path dir = Launcher.workDir("fleet");
        String bootstrap = servers.kafka().bootstrapServers();
        String redisUrl = servers.redisUrl();
        String fleetRun;
        try (Launcher.Running sim = Launcher.start(dir, Map.of(), "sim", "--port", "0")) {
            String endpoint = sim.expectLine(sim.out, Pattern.compile("^\\s+aws:\\s+(http://\\S+)"), Launcher.HANG).group(1);
            Files.writeString(dir.resolve("cloudg.yaml"), """
                    providers: [aws]
                    aws:
                      org: true
                      regions: [us-east-1, eu-west-1]
                      endpoint_url: %s
                      access_key_id: AKIASIMMANAGEMENT001
                      secret_access_key: cloudg-sim-management-secret
                      collectors: [vpc, subnets, security_groups, instances, iam_users, s3_buckets]
                    """.formatted(endpoint));

            try (Launcher.Running worker = Launcher.start(dir, Map.of(), "--log-format", "json", "worker", "--config",
                    "cloudg.yaml", "--kafka", bootstrap, "--redis", redisUrl, "--id", "w1", "--health-port", "0")) {
                worker.expectLine(worker.err, Pattern.compile("worker w1 joined group"), Launcher.HANG);

                Launcher.Result fleet = Launcher.run(dir, "map", "--distributed", "--config", "cloudg.yaml", "--kafka",
                        bootstrap, "--redis", redisUrl, "--out", "out", "--no-progress").exits(0);
                assertThat(fleet.out()).containsPattern("aws: \\d+ assets in 3 accounts x 2 regions");
                JsonNode map = new ObjectMapper().readTree(dir.resolve("out/inventory-map.json").toFile());
                assertThat(map.path("run").path("mode").asText()).isEqualTo("distributed");
                assertThat(map.path("assets").size()).isPositive();
                fleetRun = map.path("run").path("id").asText();
                assertThat(dir.resolve("out/runs").resolve(fleetRun)).isDirectory();

                Launcher.Result stopped = worker.stop().exits(0);
                assertThat(stopped.out()).isEmpty();
                assertWorkerSaidWhatItDid(stopped.err(), map.path("coverage"));
            }

            // the same estate mapped embedded, with DescribeSubnets denied: subnets gone and their coverage worse
            HttpResponse<String> faults = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(endpoint + "/_sim/faults"))
                    .PUT(HttpRequest.BodyPublishers.ofString("faults:\n  - {match: {provider: aws, service: ec2, "
                            + "operation: DescribeSubnets}, error: access_denied}\n")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(faults.statusCode()).as(faults.body()).isEqualTo(200);
            Launcher.Result embedded = Launcher.run(dir, "map", "--config", "cloudg.yaml", "--redis", redisUrl, "--out", "out",
                    "--no-progress").exits(3);
            assertThat(embedded.out()).containsPattern("\\d+ PARTIAL, \\d+ FAILED").doesNotContain(" 0 PARTIAL, 0 FAILED");

            Launcher.Result diff = Launcher.run(dir, "diff", "out/runs/" + fleetRun, "out").exits(1);
            assertThat(diff.out()).contains("Assets: 0 added").containsPattern("Coverage: [1-9]\\d* worse, 0 better")
                    .containsPattern("worse +\\S*subnets\\S* SUCCESS -> (PARTIAL|FAILED)");
            // nothing else differs: an asset crosses the fleet's wire exactly (a security group rule's null ports too)
            Matcher removed = Pattern.compile("Assets: 0 added, ([1-9]\\d*) removed, 0 changed").matcher(diff.out());
            assertThat(removed.find()).as(diff.out()).isTrue();
            assertThat(diff.out().lines().filter(l -> l.startsWith("  - ")).allMatch(l -> l.contains("AWS::EC2::Subnet")))
                    .as("only subnets are gone%n%s", diff.out()).isTrue();
            assertThat(diff.out().lines().filter(l -> l.startsWith("  worse ")).allMatch(l -> l.contains("/subnets ")))
                    .as("only the subnets' coverage is worse%n%s", diff.out()).isTrue();
        }

        // what both maps' governor keeps in Redis, shown and reset
        Launcher.Result show = Launcher.run(dir, "ratelimit", "show", "--redis", redisUrl).exits(0);
        assertThat(show.out()).contains("learned state in Redis").containsPattern("\\d+ entr(y|ies), \\d+ leaf/leaves below its ceiling");
        Launcher.Result reset = Launcher.run(dir, "ratelimit", "reset", "--redis", redisUrl, "--yes").exits(0);
        assertThat(reset.out()).containsPattern("removed [1-9]\\d* key\\(s\\)");
        assertThat(Launcher.run(dir, "ratelimit", "show", "--redis", redisUrl).exits(0).out()).contains("nothing learned");
    }

    /**
     * A JSON worker's stderr: every line an object; one INFO line per task it ended, with the task's id, account,
     * region, jobs, calls and status, as fields and in the message (issue 39: it wrote 4 INFO lines for 644 tasks).
     */
    static void assertWorkerSaidWhatItDid(String stderr, JsonNode coverage) throws Exception {
        java.util.List<JsonNode> lines = new java.util.ArrayList<>();
        for (String line : stderr.split("\n")) {
            assertThat(line).as("a JSON worker's stderr line").startsWith("{");
            lines.add(new ObjectMapper().readTree(line));
        }
        java.util.List<JsonNode> ended = lines.stream().filter(n -> n.path("log.logger").asText().equals("cloudg.task")
                && n.path("message").asText().startsWith("task ")).toList();
        // a coverage record per account x region the tasks mapped, and the organization's discovery (no task)
        java.util.Set<String> mapped = new java.util.TreeSet<>();
        coverage.forEach(r -> {
            if (!r.path("region").asText().equals("discovery")) {
                mapped.add(r.path("account_id").asText() + "/" + r.path("region").asText());
            }
        });
        assertThat(mapped).isNotEmpty();
        assertThat(ended.stream().map(n -> n.path("account").asText() + "/" + n.path("region").asText()).toList())
                .as("one line per task ended: %s", stderr).hasSameElementsAs(mapped);
        for (JsonNode n : ended) {
            assertThat(n.get("log.level").asText()).isEqualTo("INFO");
            for (String field : new String[] {"run_id", "task_id", "provider", "account", "region", "status"}) {
                assertThat(n.path(field).asText()).as("%s of %s", field, n).isNotEmpty();
            }
            assertThat(n.path("jobs").isInt()).as(n.toString()).isTrue();
            assertThat(n.path("calls").isNumber()).as(n.toString()).isTrue();
            assertThat(n.get("message").asText()).contains(" ended " + n.get("status").asText() + " in aws/",
                    n.get("jobs").asInt() + " job", n.get("calls").asLong() + " call");
        }
        assertThat(ended.stream().mapToLong(n -> n.get("calls").asLong()).sum()).as("the tasks' calls").isPositive();
    }
}
