package io.cloudg.fleet.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudg.InventoryResult;
import io.cloudg.inventory.Asset;
import io.cloudg.inventory.CoverageStatus;
import io.cloudg.sim.CloudSim;
import io.cloudg.sim.SimOptions;
import io.cloudg.sim.config.EstateSpec;
import io.cloudg.sim.config.FaultSpec;
import io.cloudg.sim.config.LatencySpec;
import io.cloudg.fleet.local.FreePorts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import redis.embedded.RedisServer;

/**
 * The world a fleet test maps: a cloud-sim estate (real AWS SDK clients talk to it over loopback, quotas
 * enforced), a real Redis (embedded-redis's redis-server binary) for the shared governor, and the
 * {@code cloudg.yaml} that points coordinator and workers at both and at Kafka.
 *
 * <p>The Redis is one per test JVM ({@link #sharedRedisPort()}), started on first use and stopped when the JVM
 * exits: each test's {@code cloudg.yaml} has a key prefix of its own, and its simulator another endpoint (so
 * another estate for learned rates), so tests share the server but no key. One server also means one
 * extraction of the binary: tests running at once that each extracted and started their own raced ("Text
 * file busy").
 */
final class FleetEstate implements AutoCloseable {
    static final List<String> REGIONS = List.of("us-east-1", "eu-west-1");
    private static RedisServer sharedRedis;
    private static int sharedRedisPort;

    final CloudSim sim;
    final int redisPort;
    final List<String> regions;

    /** The port of this JVM's Redis, started on the first call. */
    static synchronized int sharedRedisPort() {
        if (sharedRedis == null) {
            int port = FreePorts.next();
            RedisServer r;
            try {
                r = RedisServer.newRedisServer().port(port).bind("127.0.0.1").setting("save \"\"")
                        .setting("appendonly no").build();
                r.start();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    r.stop();
                } catch (IOException e) {
                    // the JVM is exiting: the server goes with it
                }
            }, "redis-stop"));
            sharedRedis = r;
            sharedRedisPort = port;
        }
        return sharedRedisPort;
    }

    FleetEstate(EstateSpec estate, FaultSpec faults) {
        this(estate, faults, REGIONS);
    }

    /** An estate mapped in {@code regions} only (fewer tasks, for tests about one behaviour). */
    FleetEstate(EstateSpec estate, FaultSpec faults, List<String> regions) {
        this.regions = List.copyOf(regions);
        SimOptions.Builder b = SimOptions.builder().port(0).estate(estate);
        if (faults != null) {
            b.faults(faults);
        }
        this.redisPort = sharedRedisPort();
        this.sim = CloudSim.start(b.build());
    }

    /** The default demo estate (3 accounts, 2 regions) with a little latency per call. */
    static EstateSpec demo(Duration latency) {
        return EstateSpec.defaultEstate().withLatency(new LatencySpec(latency, latency));
    }

    String redisUrl() {
        return "redis://127.0.0.1:" + redisPort;
    }

    /** {@code cloudg.yaml} for one test: its own key prefix, topics and group, so tests never share state. */
    String yaml(String bootstrap, String name, Path out, String fleetExtra) {
        return yaml(bootstrap, name, out, fleetExtra, "{max_in_flight: 3, threads: 8, shutdown_grace_seconds: 10, health_port: 0}");
    }

    String yaml(String bootstrap, String name, Path out, String fleetExtra, String worker) {
        return String.join("\n",
                "providers: [aws]",
                "output_dir: " + out.toAbsolutePath(),
                "aws:",
                "  endpoint_url: " + sim.awsEndpoint(),
                "  access_key_id: " + sim.managementCredentials().accessKeyId(),
                "  secret_access_key: " + sim.managementCredentials().secretAccessKey(),
                "  org: true",
                "  regions: [" + String.join(", ", regions) + "]",
                "ratelimit:",
                "  backend: redis",
                "  redis: {url: \"" + redisUrl() + "\", key_prefix: " + name + ", fleet_size_hint: 3}",
                "fleet:",
                "  kafka: {bootstrap_servers: \"" + bootstrap + "\", session_timeout_ms: 6000}",
                "  topics: {prefix: " + name + ", task_partitions: 6, result_partitions: 3}",
                "  group: " + name + "-workers",
                "  progress_interval_seconds: 2",
                "  worker: " + worker,
                fleetExtra,
                "");
    }

    static Path write(Path dir, String yaml) {
        try {
            Files.createDirectories(dir);
            Path f = dir.resolve("cloudg.yaml");
            Files.writeString(f, yaml);
            return f;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    Set<String> truth() {
        return sim.truth().assets().stream().filter(a -> a.provider().equals("aws"))
                // S3 buckets are listed account-wide (from the global task), whatever their region
                .filter(a -> regions.contains(a.region()) || a.region().equals("global") || a.type().equals("AWS::S3::Bucket"))
                .map(a -> a.account() + "|" + a.region() + "|" + a.type() + "|" + a.id())
                .collect(Collectors.toCollection(TreeSet::new));
    }

    static Set<String> mapped(InventoryResult r) {
        try (Stream<Asset> s = r.assets()) {
            return s.map(a -> a.accountId() + "|" + a.region() + "|" + a.type() + "|" + a.id())
                    .collect(Collectors.toCollection(TreeSet::new));
        }
    }

    /** The map holds the truth, each asset once, and every coverage entry is SUCCESS. */
    void assertMapEqualsTruth(InventoryResult r) {
        Set<String> truth = truth();
        assertThat(truth).hasSizeGreaterThan(80);
        assertThat(mapped(r)).isEqualTo(truth);
        assertThat(r.assetCount()).as("each asset once").isEqualTo(truth.size());
        assertThat(r.coverage()).allSatisfy(rec -> assertThat(rec.status()).as(rec.toString()).isEqualTo(CoverageStatus.SUCCESS));
        assertThat(r.mapFile()).exists();
        io.cloudg.testkit.MapSchema.assertValid(r.mapFile());
    }

    @Override
    public void close() {
        sim.close(); // the shared Redis stays for the JVM's other tests
    }
}
