package io.cloudg.fleet.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudg.CloudGConfig;
import io.cloudg.InventoryResult;
import io.cloudg.fleet.FleetGovernor;
import io.cloudg.fleet.coordinator.FleetCoordinator;
import io.cloudg.fleet.kafka.KafkaClients;
import io.cloudg.fleet.local.FreePorts;
import io.cloudg.fleet.observe.Dashboard;
import io.cloudg.fleet.observe.Prometheus;
import io.cloudg.fleet.observe.Promtool;
import io.cloudg.fleet.worker.WorkerRuntime;
import io.cloudg.metrics.CloudgMetrics;
import io.cloudg.metrics.MetricsHttp;
import io.cloudg.metrics.MetricsSettings;
import io.cloudg.resilience.Governor;
import io.cloudg.resilience.time.TimeSource;
import io.cloudg.sim.config.FaultSpec;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real Prometheus scrapes a worker ({@code /metrics} on its probe port) and a coordinator
 * ({@code --metrics-port}) during a fleet map whose EC2 calls the simulator throttles three times; the
 * numbers Prometheus stored agree with the run (tasks published, started and done, assets mapped, the
 * throttles), and {@code promtool check metrics} passes on both endpoints. Skipped, saying why, where
 * Prometheus is not installed (CI installs it and requires the test to run).
 */
@Timeout(value = 8, unit = TimeUnit.MINUTES)
class FleetPrometheusIT {
    static KafkaClusterTestKit kafka;

    @TempDir
    Path dir;

    final List<AutoCloseable> open = new ArrayList<>();
    final List<String> progress = Collections.synchronizedList(new ArrayList<>());
    final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    static void startKafka() throws Exception {
        Prometheus.requireInstalled();
        kafka = new KafkaClusterTestKit.Builder(new TestKitNodes.Builder().setCombined(true).setNumBrokerNodes(1)
                .setNumControllerNodes(1).build())
                .setConfigProp("offsets.topic.replication.factor", "1")
                .setConfigProp("offsets.topic.num.partitions", "4")
                .setConfigProp("group.initial.rebalance.delay.ms", "0").build();
        kafka.format();
        kafka.startup();
        kafka.waitForReadyBrokers();
    }

    @AfterAll
    static void stopKafka() throws Exception {
        if (kafka != null) {
            kafka.close();
        }
    }

    @AfterEach
    void closeAll() throws Exception {
        Collections.reverse(open);
        for (AutoCloseable c : open) {
            c.close();
        }
    }

    <T extends AutoCloseable> T keep(T c) {
        open.add(c);
        return c;
    }

    String scrape(int port) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type")).hasValue(CloudgMetrics.CONTENT_TYPE);
        return r.body();
    }

    @Test
    void prometheusScrapesAWorkerAndTheCoordinatorDuringAFleetMapAndTheNumbersAgree() throws Exception {
        FaultSpec throttle = FaultSpec.fromYaml("faults: [{match: {provider: aws, service: ec2, operation: DescribeVpcs}, "
                + "error: throttle, count: 2}]");
        FleetEstate estate = keep(new FleetEstate(FleetEstate.demo(Duration.ofMillis(2)), throttle, List.of("us-east-1")));
        int workerPort = FreePorts.next();
        int coordinatorPort = FreePorts.next();
        FleetConfig f = FleetConfig.fromYaml(estate.yaml(kafka.bootstrapServers(), "prom", dir.resolve("out"),
                "", "{max_in_flight: 3, threads: 8, shutdown_grace_seconds: 10, "
                        + "health_port: " + workerPort + "}"));
        MetricsSettings metricsSettings = MetricsSettings.DEFAULTS.withStateRefresh(Duration.ofSeconds(1));

        WorkerRuntime worker = keep(WorkerRuntime.open(f.config(), f.fleet().withWorker(f.fleet().worker().withId("w1")),
                metricsSettings, System::getenv, TimeSource.system()));
        Thread workerThread = new Thread(() -> worker.worker().run(), "worker-w1");
        workerThread.setDaemon(true);
        workerThread.start();
        open.add(() -> {
            worker.worker().stop(Duration.ofSeconds(5));
            workerThread.join(30_000);
        });
        assertThat(worker.healthPort()).isEqualTo(workerPort);

        CloudgMetrics coordinatorMetrics = keep(CloudgMetrics.open(metricsSettings, "coordinator", TimeSource.system()));
        keep(MetricsHttp.serve(coordinatorPort, coordinatorMetrics));
        CloudGConfig cfg = f.config();
        Governor governor = keep(FleetGovernor.install(cfg, coordinatorMetrics));
        FleetCoordinator coordinator = new FleetCoordinator(cfg, f.fleet(), new KafkaClients(f.fleet().kafka(), System::getenv),
                governor, TimeSource.system(), progress::add, coordinatorMetrics);

        Prometheus prometheus = keep(Prometheus.start(dir.resolve("prometheus"),
                Map.of("cloudg-worker", "127.0.0.1:" + workerPort, "cloudg-coordinator", "127.0.0.1:" + coordinatorPort)));
        Poll.until("both targets up", Duration.ofSeconds(30),
                () -> prometheus.targets().values().stream().filter(h -> h.startsWith("up")).count() == 2,
                () -> prometheus.targets().toString());
        FleetInProcessIT.awaitGroup(f, "w1");

        CompletableFuture<InventoryResult> run = FleetInProcessIT.inBackground(coordinator::run);
        Poll.until("a scrape of the run in progress", Duration.ofSeconds(90),
                () -> run.isDone() || prometheus.value("sum(cloudg_fleet_run_tasks{state=\"planned\"})").orElse(0.0) > 0);
        InventoryResult result = run.get(6, TimeUnit.MINUTES);
        assertThat(result.complete()).isTrue();
        estate.assertMapEqualsTruth(result);

        long done = worker.worker().tasksDone();
        Poll.until("Prometheus to hold the finished run", Duration.ofSeconds(30),
                () -> prometheus.value("sum(cloudg_fleet_tasks_done_total)").orElse(-1.0) == done
                        && prometheus.value("max(cloudg_fleet_run_tasks{state=\"done\"}) - max(cloudg_fleet_run_tasks{state=\"planned\"})")
                        .orElse(-1.0) == 0.0,
                () -> prometheus.query("{__name__=~\"cloudg_fleet_.*\"}").toString());

        assertThat(prometheus.value("sum(up)")).hasValue(2.0);
        assertThat(prometheus.value("sum(cloudg_fleet_tasks_published_total)").orElseThrow())
                .as("first attempts, as the coordinator published them").isPositive()
                .isEqualTo(prometheus.value("sum(cloudg_fleet_tasks_done_total)").orElseThrow());
        assertThat(prometheus.value("sum(cloudg_fleet_tasks_started_total{job=\"cloudg-worker\"})").orElseThrow())
                .isGreaterThanOrEqualTo((double) done);
        assertThat(prometheus.value("sum(cloudg_fleet_tasks_dead_lettered_total)")).hasValue(0.0);
        assertThat(prometheus.value("sum(cloudg_assets_mapped_total)")).as("each asset counted by the process that mapped it")
                .hasValue((double) result.assetCount());
        assertThat(prometheus.value("sum(cloudg_coverage_entries_total{status=\"SUCCESS\"})").orElseThrow()).isPositive();
        assertThat(prometheus.value("sum(cloudg_coverage_entries_total{status!=\"SUCCESS\"})")).hasValue(0.0);
        assertThat(prometheus.value("sum(cloudg_governor_calls_total{outcome=\"throttled\",service=\"ec2\","
                + "operation=\"DescribeVpcs\"})")).as("the simulator's two throttles").hasValue(2.0);
        assertThat(prometheus.value("sum(cloudg_governor_calls_total{outcome=\"success\"})").orElseThrow()).isPositive();
        assertThat(prometheus.value("sum(cloudg_governor_retries_total)").orElseThrow()).isGreaterThanOrEqualTo(2.0);
        assertThat(prometheus.value("sum(cloudg_redis_command_seconds_count{job=\"cloudg-worker\",command=\"admit\"})")
                .orElseThrow()).as("the shared governor's round trips").isPositive();
        assertThat(prometheus.value("max(cloudg_fleet_tasks_lag)")).as("read from the group's offsets").isPresent();
        assertThat(prometheus.value("sum(cloudg_fleet_result_delivery_seconds_count)").orElseThrow()).isPositive();
        assertThat(prometheus.value("max(cloudg_governor_degraded)")).hasValue(0.0);
        // the Kafka clients' own metrics, while they were open (the coordinator's closed with the run)
        assertThat(prometheus.names("{job=\"cloudg-worker\"}")).anySatisfy(n -> assertThat(n).startsWith("kafka_consumer_"));
        assertThat(prometheus.names("{job=\"cloudg-coordinator\"}")).anySatisfy(n -> assertThat(n).startsWith("kafka_producer_"));
        assertThat(prometheus.value("max(jvm_memory_used_bytes{job=\"cloudg-worker\",area=\"heap\"})").orElseThrow()).isPositive();

        for (int port : List.of(workerPort, coordinatorPort)) {
            String text = scrape(port);
            Promtool.Result lint = Promtool.checkMetrics(text);
            assertThat(lint.ok()).as("promtool check metrics on :%d said %s", port, lint.output()).isTrue();
            assertThat(text).doesNotContain(estate.sim.managementCredentials().accessKeyId());
        }
        // every query of the Grafana dashboard is PromQL this Prometheus accepts; the fleet's panels show data
        for (String q : Dashboard.queries()) {
            prometheus.query(Dashboard.promql(q)); // throws on a query Prometheus refuses
        }
        for (String q : Dashboard.queries()) {
            if (q.contains("cloudg_fleet_tasks_done_total") || q.contains("cloudg_governor_calls_total{outcome=\"throttled\"")
                    || q.contains("cloudg_assets_mapped_total")) {
                assertThat(prometheus.query(Dashboard.promql(q).replace("[1m]", "[10m]"))).as(q).isNotEmpty();
            }
        }
        Optional<Double> noAccounts = prometheus.value("count({__name__=~\"cloudg_.+\",account!=\"\"})");
        assertThat(noAccounts).as("no account label without metrics.per_account").isEmpty();
    }
}
