package io.cloudg.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cloudg.Governors;
import io.cloudg.map.InventoryMapper;
import io.cloudg.InventoryResult;
import io.cloudg.resilience.Governor;
import io.cloudg.resilience.config.RateLimitConfig;
import io.cloudg.resilience.memory.LearnedRate;
import io.cloudg.resilience.memory.LearnedRatesFile;
import io.cloudg.resilience.testkit.Threads;
import io.cloudg.metrics.CloudgMetrics;
import io.cloudg.resilience.time.TimeSource;
import io.cloudg.sim.config.EstateSpec;
import io.cloudg.sim.config.Match;
import io.cloudg.sim.config.NeighbourSpec;
import io.cloudg.sim.core.Provider;
import io.cloudg.sim.core.AwsType;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded governor remembers what it learned, per estate: against an EC2 quota half taken by a noisy
 * neighbour, the first map is throttled until it has halved its DescribeImageAttribute rate; that rate goes
 * to the state file under the estate (the simulator's management account at its endpoint), and a second map
 * of the same estate (a fresh simulator at the same address, the neighbour still there) starts at it and is
 * throttled (nearly) never. A simulator at another address has the same account ids but is another estate:
 * it starts from the built-in rates. Each map names the learned state it used in its run block.
 *
 * <p>Over 60 s (two maps of 400 per-item calls at about 10 rps one after the other; the map of the other
 * estate runs beside the second) because the quota is the point: after its first throttle a map slows to just
 * above the neighbour's leftover, and its second throttle comes only once the bucket's burst has drained,
 * 20-30 s in. Fewer calls, or a quota scaled up, end the map before it (tried: one throttle, not two). The two
 * maps at once each have a simulator of their own and write the one state file in turn (the other estate's
 * after the second's): a state file is merged by reading and rewriting it, so two runs ending at the same
 * moment could each miss the other's entries.
 */
class LearnedRatesEndToEndTest {
    static final int AMIS = 400;
    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    static EstateSpec estate() {
        return EstateSpec.generated(1, List.of("us-east-1"), Map.of(AwsType.EC2_IMAGE, AMIS))
                .withNeighbours(List.of(new NeighbourSpec(new Match(Provider.AWS, null, null, "ec2", null), 0.5)));
    }

    record Run(long throttled, long calls, String estate, JsonNode learned, InventoryResult result) {
    }

    Run map(Path stateFile, String name, int port) throws Exception {
        return map(stateFile, name, port, CompletableFuture.completedFuture(null));
    }

    /** A map whose governor is closed (its learned rates written) only once {@code closeAfter} is done. */
    Run map(Path stateFile, String name, int port, CompletableFuture<?> closeAfter) throws Exception {
        RateLimitConfig rl = RateLimitConfig.builder().stateFile(stateFile.toString()).build();
        try (SimHarness h = new SimHarness(estate(), null, null, port)) {
            Governor g = Governors.create(rl, k -> null, TimeSource.system(), CloudgMetrics.none());
            InventoryResult r;
            try {
                r = new InventoryMapper(h.config(dir.resolve(name)).aws(a -> a.withRegions(List.of("us-east-1"))
                        .withCollectors(List.of("amis"), List.of()).withSweeps(false, false)).build(), g).mapInventory();
            } finally {
                closeAfter.handle((v, e) -> null).get(10, TimeUnit.MINUTES);
                g.close(); // the end of the run: learned rates go to the state file
            }
            JsonNode learned = JSON.readTree(r.mapFile().toFile()).at("/run/learned_rates");
            String estate = "aws:" + h.sim.managementCredentials().accountId() + "@" + h.sim.awsEndpoint();
            return new Run(h.sim.stats().totals().throttled(), h.sim.stats().totals().calls(), estate, learned, r);
        }
    }

    static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @Test
    void aSecondMapOfTheEstateStartsAtTheLearnedRateAndAnotherEstateDoesNot() throws Exception {
        Path state = dir.resolve("cache/learned-rates.json");
        int port = freePort();
        Run first = map(state, "first", port);
        assertThat(first.result().summary().assets()).isEqualTo(AMIS);
        assertThat(first.learned().path("file").asText()).isEqualTo(state.toAbsolutePath().toString());
        assertThat(first.learned().at("/estates/0/provider").asText()).isEqualTo("aws");
        assertThat(first.learned().at("/estates/0/estate").asText()).isEqualTo(first.estate());
        assertThat(first.learned().at("/estates/0/restored").asInt()).as("nothing learned yet").isZero();
        assertThat(first.throttled()).as("the neighbour leaves 10 of EC2's 20 rps: the first map learns it the hard way")
                .isGreaterThanOrEqualTo(2);
        List<LearnedRate> learned = new LearnedRatesFile(state).readAll();
        assertThat(learned).as("the slowed leaf is kept under the estate").anySatisfy(r -> {
            assertThat(r.estate()).isEqualTo(first.estate());
            assertThat(r.leaf().operation()).isEqualTo("DescribeImageAttribute");
            assertThat(r.rateRps()).isLessThan(r.ceilingRps());
        });

        CompletableFuture<Run> secondRun = Threads.async("second map", () -> {
            try {
                return map(state, "second", port);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        Run other = map(state, "other", 0, secondRun);
        Run second = secondRun.get();
        assertThat(second.estate()).isEqualTo(first.estate());
        assertThat(second.result().summary().assets()).isEqualTo(AMIS);
        assertThat(second.learned().at("/estates/0/restored").asInt()).as("the second map starts where the first left off")
                .isPositive();
        assertThat(second.throttled()).as("and is (nearly) never throttled: first %d, second %d", first.throttled(),
                second.throttled()).isLessThanOrEqualTo(Math.max(1, first.throttled() / 3));

        assertThat(other.estate()).as("the same account ids at another endpoint").isNotEqualTo(first.estate())
                .startsWith("aws:" + first.estate().substring(4, first.estate().indexOf('@')));
        assertThat(other.learned().at("/estates/0/estate").asText()).isEqualTo(other.estate());
        assertThat(other.learned().at("/estates/0/restored").asInt()).as("another estate's rates are not its own").isZero();
        assertThat(other.throttled()).as("so it learns the hard way too").isGreaterThanOrEqualTo(2);
        assertThat(new LearnedRatesFile(state).readAll()).extracting(LearnedRate::estate).as("both estates kept")
                .contains(first.estate(), other.estate());
    }
}
