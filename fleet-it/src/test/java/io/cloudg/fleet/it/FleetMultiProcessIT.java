package io.cloudg.fleet.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudg.CloudGConfig;
import io.cloudg.InventoryResult;
import io.cloudg.fleet.FleetGovernor;
import io.cloudg.fleet.coordinator.FleetCoordinator;
import io.cloudg.fleet.kafka.KafkaClients;
import io.cloudg.fleet.local.FreePorts;
import io.cloudg.fleet.local.KafkaBrokerProcess;
import io.cloudg.resilience.Governor;
import io.cloudg.resilience.testkit.Poll;
import io.cloudg.resilience.testkit.Threads;
import io.cloudg.sim.SimStats;
import io.cloudg.sim.quota.BucketStats;
import java.nio.file.Files;
import java.nio.file.Path;
import io.cloudg.resilience.time.TimeSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real fleet: a Kafka broker in its own JVM, a real Redis, cloud-sim, and three worker JVMs (started
 * once, used by three runs in turn). The map equals the truth; the same with one worker killed with
 * SIGKILL mid-run (a fresh worker then joins, so the fleet is three again); the same with the Kafka broker
 * restarted mid-run. After each run the simulator has seen no bucket admit more than rate x 1 s + burst
 * in any 1-second window, fleet-wide, and under 1% throttled answers (no noisy neighbour is configured).
 * At the end SIGTERM stops every worker through its graceful path.
 *
 * <p>Its first test takes about a minute (more on a loaded machine): the fleet it maps with (a Kafka broker
 * and three worker JVMs, each loading the cloud SDKs) starts before it, once for the four tests.
 *
 * <p>The class's timeout only stops a hung test: it is above the longest sum of a test's own bounded waits (the
 * SIGKILL test: 90 s for the view, 180 s for the run, 90 s for the fresh worker, 60 s for the group).
 */
@Timeout(value = 8, unit = TimeUnit.MINUTES)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FleetMultiProcessIT {
    static final Duration LATENCY = Duration.ofMillis(25);

    Path dir;
    KafkaBrokerProcess kafka;
    FleetEstate estate;
    Path configFile;
    FleetConfig config;
    final List<WorkerJvm> workers = new ArrayList<>();
    final List<AutoCloseable> open = new ArrayList<>();
    final List<String> progress = Collections.synchronizedList(new ArrayList<>());

    @BeforeAll
    void startFleet(@TempDir Path tmp) {
        dir = tmp;
        kafka = KafkaBrokerProcess.start(dir.resolve("kafka"), FreePorts.next(), FreePorts.next(),
                System.getProperty("java.class.path"), Duration.ofSeconds(120));
        estate = new FleetEstate(FleetEstate.demo(LATENCY), null);
        configFile = FleetEstate.write(dir, estate.yaml(kafka.bootstrap(), "multi", dir.resolve("out"),
                "  task_timeout_seconds: 120\n  lost_grace_seconds: 20",
                "{max_in_flight: 3, threads: 8, shutdown_grace_seconds: 20}"));
        config = FleetConfig.load(configFile);
        for (String id : List.of("w1", "w2", "w3")) {
            workers.add(new WorkerJvm(configFile, id, dir));
        }
        workers.forEach(FleetMultiProcessIT::awaitReady);
        FleetInProcessIT.awaitGroup(config, "w1", "w2", "w3");
    }

    @AfterAll
    void stopFleet() throws Exception {
        workers.forEach(WorkerJvm::close);
        Collections.reverse(open);
        for (AutoCloseable c : open) {
            c.close();
        }
        if (estate != null) {
            estate.close();
        }
        if (kafka != null) {
            kafka.stop();
        }
    }

    static void awaitReady(WorkerJvm w) {
        Poll.until("worker " + w.id + " ready", Duration.ofSeconds(90), () -> w.ready() == 200, () -> w.process.tail(20));
    }

    FleetCoordinator coordinator() {
        CloudGConfig cfg = config.config();
        Governor g = FleetGovernor.create(cfg);
        open.add(g);
        return new FleetCoordinator(cfg, config.fleet(), new KafkaClients(config.fleet().kafka(), System::getenv), g,
                TimeSource.system(), progress::add);
    }

    static CompletableFuture<InventoryResult> inBackground(FleetCoordinator c) {
        return Threads.async("coordinator", c::run);
    }

    WorkerJvm worker(String id) {
        return workers.stream().filter(w -> w.id.equals(id)).findFirst().orElseThrow();
    }

    /** Fleet-wide, no bucket went past its quota in any 1-second window, and under 1% of calls were throttled. */
    void assertWithinQuotas() {
        SimStats stats = estate.sim.stats();
        assertThat(stats.buckets()).isNotEmpty();
        for (BucketStats b : stats.buckets()) {
            assertThat((double) b.maxAdmittedPerSecond()).as("bucket %s", b.key()).isLessThanOrEqualTo(b.rate() * 1.0 + b.burst());
        }
        long calls = stats.buckets().stream().mapToLong(BucketStats::calls).sum();
        long throttled = stats.buckets().stream().mapToLong(BucketStats::throttled).sum();
        assertThat(calls).isGreaterThan(300);
        assertThat((double) throttled).as("throttled answers of %d calls", calls).isLessThan(calls * 0.01);
    }

    @Test
    @Order(1)
    void threeWorkerJvmsMapTheTruthWithinTheQuotas() {
        InventoryResult result = coordinator().run();
        estate.assertMapEqualsTruth(result);
        assertWithinQuotas();
    }

    @Test
    @Order(2)
    void aWorkerKilledWithSigkillMidRunLosesNothing() throws Exception {
        FleetCoordinator coordinator = coordinator();
        CompletableFuture<InventoryResult> run = inBackground(coordinator);
        WorkerJvm victim = worker("w2");
        FleetInProcessIT.awaitView(run, coordinator, v -> v.done() >= 3 && v.runningByWorker().getOrDefault(victim.id, 0) > 0,
                "w2 busy mid-run");
        assertThat(coordinator.view().done()).isLessThan(coordinator.view().total());
        victim.process.kill();
        assertThat(victim.process.exitValue()).as("killed by SIGKILL").isEqualTo(137);

        InventoryResult result = run.get(180, TimeUnit.SECONDS);
        estate.assertMapEqualsTruth(result);
        assertWithinQuotas();

        workers.remove(victim);
        WorkerJvm fresh = new WorkerJvm(configFile, "w4", dir);
        workers.add(fresh);
        awaitReady(fresh);
        FleetInProcessIT.awaitGroup(config, "w1", "w3", "w4");
    }

    @Test
    @Order(3)
    void theKafkaBrokerRestartedMidRunLosesNothing() throws Exception {
        FleetCoordinator coordinator = coordinator();
        CompletableFuture<InventoryResult> run = inBackground(coordinator);
        FleetInProcessIT.awaitView(run, coordinator, v -> v.done() * 3 >= v.total(), "a third of the tasks done");
        assertThat(coordinator.view().done()).isLessThan(coordinator.view().total());
        kafka.restart(Duration.ofSeconds(120));

        InventoryResult result = run.get(180, TimeUnit.SECONDS);
        estate.assertMapEqualsTruth(result);
        assertWithinQuotas();
    }

    @Test
    @Order(4)
    void sigtermStopsEveryWorkerThroughItsGracefulPath() throws Exception {
        assertThat(workers).hasSize(3);
        for (WorkerJvm w : workers) {
            int status = w.terminate();
            assertThat(status).as("%s ends on SIGTERM, not by a kill", w.id).isEqualTo(143);
            String log = Files.readString(w.process.log());
            assertThat(log).as("log of %s", w.id).contains("worker " + w.id + " stopping", "worker " + w.id + " stopped after");
        }
    }
}
