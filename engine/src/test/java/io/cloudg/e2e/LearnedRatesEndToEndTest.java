package io.cloudg.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudg.map.InventoryMapper;
import io.cloudg.Governors;
import io.cloudg.InventoryResult;
import io.cloudg.resilience.Governor;
import io.cloudg.resilience.config.RateLimitConfig;
import io.cloudg.resilience.memory.LearnedRate;
import io.cloudg.resilience.memory.LearnedRatesFile;
import io.cloudg.resilience.spi.LeafView;
import io.cloudg.metrics.CloudgMetrics;
import io.cloudg.resilience.time.TimeSource;
import io.cloudg.sim.config.EstateSpec;
import io.cloudg.sim.config.Match;
import io.cloudg.sim.config.NeighbourSpec;
import io.cloudg.sim.core.Provider;
import io.cloudg.sim.core.AwsType;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded governor remembers what it learned: against an EC2 quota half taken by a noisy neighbour,
 * the first map is throttled until it has halved its DescribeImageAttribute rate; that rate goes to the state
 * file, and a second map of the same estate (a fresh simulator, the neighbour still there) starts at it and
 * is throttled (nearly) never.
 */
class LearnedRatesEndToEndTest {
    static final int AMIS = 400;

    @TempDir
    Path dir;

    static EstateSpec estate() {
        return EstateSpec.generated(1, List.of("us-east-1"), Map.of(AwsType.EC2_IMAGE, AMIS))
                .withNeighbours(List.of(new NeighbourSpec(new Match(Provider.AWS, null, null, "ec2", null), 0.5)));
    }

    record Run(long throttled, long calls, double startRate, InventoryResult result) {
    }

    Run map(Path stateFile, String name) throws Exception {
        RateLimitConfig rl = RateLimitConfig.builder().stateFile(stateFile.toString()).build();
        try (SimHarness h = new SimHarness(estate(), null)) {
            Governor g = Governors.create(rl, k -> null, TimeSource.system(), CloudgMetrics.none());
            double start = g.store().snapshot().leaves().stream()
                    .filter(l -> "DescribeImageAttribute".equals(l.leaf().operation())).mapToDouble(LeafView::rateRps)
                    .findFirst().orElse(20.0);
            InventoryResult r;
            try {
                r = new InventoryMapper(h.config(dir.resolve(name)).aws(a -> a.withRegions(List.of("us-east-1"))
                        .withCollectors(List.of("amis"), List.of()).withSweeps(false, false)).build(), g).mapInventory();
            } finally {
                g.close(); // the end of the run: learned rates go to the state file
            }
            return new Run(h.sim.stats().totals().throttled(), h.sim.stats().totals().calls(), start, r);
        }
    }

    @Test
    void aSecondMapStartsAtTheLearnedRateAndIsNotThrottledAgain() throws Exception {
        Path state = dir.resolve("cache/learned-rates.json");
        Run first = map(state, "first");
        assertThat(first.result().summary().assets()).isEqualTo(AMIS);
        assertThat(first.startRate()).isEqualTo(20.0);
        assertThat(first.throttled()).as("the neighbour leaves 10 of EC2's 20 rps: the first map learns it the hard way")
                .isGreaterThanOrEqualTo(2);
        List<LearnedRate> learned = new LearnedRatesFile(state).readAll();
        assertThat(learned).as("the slowed leaf is kept").anySatisfy(r -> {
            assertThat(r.leaf().operation()).isEqualTo("DescribeImageAttribute");
            assertThat(r.rateRps()).isLessThan(r.ceilingRps());
        });

        Run second = map(state, "second");
        assertThat(second.result().summary().assets()).isEqualTo(AMIS);
        assertThat(second.startRate()).as("the second map starts where the first left off").isLessThan(20.0);
        assertThat(second.throttled()).as("and is (nearly) never throttled: first %d, second %d", first.throttled(),
                second.throttled()).isLessThanOrEqualTo(Math.max(1, first.throttled() / 3));
    }
}
