package io.cloudg.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudg.map.InventoryMapper;
import io.cloudg.InventoryResult;
import io.cloudg.resilience.Governor;
import io.cloudg.resilience.config.RateLimitConfig;
import io.cloudg.sim.SimStats;
import io.cloudg.sim.config.EstateSpec;
import io.cloudg.sim.config.FaultSpec;
import io.cloudg.sim.config.LatencySpec;
import io.cloudg.sim.core.InFlight;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * What bounds the calls an embedded map has in flight: the governor (each account's bulkhead,
 * {@code ratelimit.aws.max_concurrency}; the process's ceiling, {@code ratelimit.max_calls_in_flight}), not a pool of
 * threads. Counted where it shows, at cloud-sim, which counts the requests it is answering, from arrival to
 * answer, overall and per account.
 *
 * <p>The sim answers every call 200 ms late, and every EC2 call 8 s late (a {@code slow} fault): each job listing
 * EC2 then holds its call long enough that the peak measures what the client allows, not how quickly a loaded
 * machine starts its calls. The quotas allow every call (nothing is throttled): only the governor holds calls back.
 * The first test takes about a minute: each EC2 call of its 40 accounts answers after 8 s, and an EC2 collector
 * makes several in a row. The two tests run at once (each its own simulator, governor and output directory; what
 * they count is counted per simulator), so the class takes the first one's minute instead of a minute and a half.
 */
@Execution(ExecutionMode.CONCURRENT)
class CallsInFlightEndToEndTest {
    static final FaultSpec SLOW_EC2 = FaultSpec.fromYaml(
            "faults: [{match: {provider: aws, service: ec2}, error: slow, delay: 8s}]");

    @TempDir
    Path out;

    static EstateSpec organization(int accounts) {
        return EstateSpec.generated(accounts, List.of("us-east-1"), 1)
                .withLatency(new LatencySpec(Duration.ofMillis(200), Duration.ZERO));
    }

    /** An embedded map of the sim's organization in us-east-1; {@code workers} 0: the default. */
    static InventoryResult map(SimHarness h, Path out, int workers, RateLimitConfig ratelimit) {
        io.cloudg.CloudGConfig.Builder b = io.cloudg.CloudGConfig.builder().providers("aws").outputDir(out)
                .ratelimit(ratelimit).aws(a -> a.withEndpoint(h.sim.awsEndpoint()).withOrg(true)
                        .withRegions(List.of("us-east-1")).withCredentials(h.sim.managementCredentials().accessKeyId(),
                                h.sim.managementCredentials().secretAccessKey()));
        if (workers > 0) {
            b.jobConcurrency(workers);
        }
        try (Governor g = Governor.builder().config(ratelimit).build()) {
            InventoryResult r = new InventoryMapper(b.build(), g).mapInventory();
            assertThat(g.callsInFlight()).as("every place given back").isZero();
            return r;
        }
    }

    @Test
    void hundredsOfCallsAreInFlightAtOnceAndNoAccountEverHasMoreThanItsBulkhead() throws Exception {
        int accounts = 40;
        int bulkhead = 16;
        try (SimHarness h = new SimHarness(organization(accounts), SLOW_EC2)) {
            RateLimitConfig rl = RateLimitConfig.builder().stateFile(RateLimitConfig.NO_STATE_FILE)
                    .aws(a -> a.maxConcurrency(bulkhead)).build();
            InventoryResult r = map(h, out, 0, rl); // the default workers: as many jobs as calls may be in flight
            assertThat(r.complete()).as("every call answered").isTrue();
            h.assertEqualsTruth(r, "aws");
            SimStats stats = h.sim.stats();
            assertThat(stats.totals().throttled()).as("the quotas allowed every call").isZero();
            assertThat(stats.totals().calls()).as("thousands of independent calls").isGreaterThan(2000);
            InFlight.Snapshot inFlight = stats.inFlight();
            assertThat(inFlight.perAccount()).hasSize(accounts);
            assertThat(inFlight.peak()).as("calls in flight at once (the old 16 threads allowed 16 x 9)").isGreaterThan(500);
            assertThat(inFlight.perAccount()).allSatisfy((account, p) ->
                    assertThat(p.peak()).as("%s's peak", account).isLessThanOrEqualTo(bulkhead));
            assertThat(inFlight.highestAccountPeak()).as("the bulkhead is what holds an account back").isEqualTo(bulkhead);
            assertThat(inFlight.now()).isZero();
        }
    }

    @Test
    void theProcesssCeilingHoldsOverEveryAccountWhateverTheJobsAndBulkheadsAllow() throws Exception {
        int ceiling = 40;
        try (SimHarness h = new SimHarness(organization(6), FaultSpec.fromYaml(
                "faults: [{match: {provider: aws, service: ec2}, error: slow, delay: 3s}]"))) {
            RateLimitConfig rl = RateLimitConfig.builder().stateFile(RateLimitConfig.NO_STATE_FILE)
                    .maxCallsInFlight(ceiling).build();
            // 400 jobs at once, 128 calls per account: the ceiling alone holds the 6 accounts to 40 calls
            InventoryResult r = map(h, out, 400, rl);
            assertThat(r.complete()).isTrue();
            h.assertEqualsTruth(r, "aws");
            InFlight.Snapshot inFlight = h.sim.stats().inFlight();
            assertThat(inFlight.peak()).as("never more than max_calls_in_flight").isLessThanOrEqualTo(ceiling);
            assertThat(inFlight.peak()).as("and the ceiling is what held the calls back").isEqualTo(ceiling);
        }
    }
}
