package io.cloudg.resilience;

import io.cloudg.resilience.spi.Scope;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cloudg.resilience.config.RateLimitConfig;
import io.cloudg.resilience.report.Counts;
import io.cloudg.resilience.spi.CallResult;
import io.cloudg.resilience.spi.GovernorListener;
import io.cloudg.resilience.spi.LeafListener;
import io.cloudg.resilience.time.ManualTimeSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The governor tells its listener what it tells the throttling report: every attempt's result, retries,
 * waits for tokens, breaker trips and refusals; once per leaf it asks for the leaf's listener.
 */
class GovernorListenerTest {
    static final Scope SUBNETS = GovernorTest.SUBNETS;
    static final Scope VPCS = GovernorTest.VPCS;

    final ManualTimeSource time = new ManualTimeSource();
    final Map<Scope, Recorder> byLeaf = new ConcurrentHashMap<>();
    final List<Scope> asked = Collections.synchronizedList(new ArrayList<>());

    /** Counts what one leaf heard. */
    static final class Recorder implements LeafListener {
        final Map<CallResult, Integer> results = Collections.synchronizedMap(new EnumMap<>(CallResult.class));
        final AtomicInteger retries = new AtomicInteger();
        final AtomicInteger trips = new AtomicInteger();
        final List<Long> waits = Collections.synchronizedList(new ArrayList<>());

        @Override
        public void result(CallResult r) {
            results.merge(r, 1, Integer::sum);
        }

        @Override
        public void retried() {
            retries.incrementAndGet();
        }

        @Override
        public void waited(long nanos) {
            waits.add(nanos);
        }

        @Override
        public void breakerTripped() {
            trips.incrementAndGet();
        }

        int count(CallResult r) {
            return results.getOrDefault(r, 0);
        }
    }

    Governor governor(Consumer<RateLimitConfig.Builder> edit) {
        RateLimitConfig.Builder b = RateLimitConfig.builder();
        edit.accept(b);
        GovernorListener l = leaf -> {
            asked.add(leaf);
            return byLeaf.computeIfAbsent(leaf, k -> new Recorder());
        };
        return Governor.builder().config(b.build()).time(time).random(() -> 0.0).listener(l).build();
    }

    @Test
    void successesThrottlesRetriesAndGiveUpsAreHeardAsTheReportCountsThem() throws Exception {
        Governor g = governor(b -> b.aws(a -> a.maxRetries(2)));
        AtomicInteger attempts = new AtomicInteger();
        assertThat(g.call(SUBNETS, () -> attempts.incrementAndGet() == 1 ? thrower() : "ok")).isEqualTo("ok");
        assertThatThrownBy(() -> g.call(SUBNETS, () -> { throw GovernorTest.throttled(); }))
                .isInstanceOf(ProviderException.class);
        assertThatThrownBy(() -> g.call(SUBNETS, () -> { throw GovernorTest.accessDenied(); }))
                .isInstanceOf(ProviderException.class);

        Recorder r = byLeaf.get(SUBNETS);
        assertThat(r.count(CallResult.SUCCESS)).isEqualTo(1);
        assertThat(r.count(CallResult.THROTTLED)).as("1 + 3 attempts").isEqualTo(4);
        assertThat(r.count(CallResult.GAVE_UP)).isEqualTo(1);
        assertThat(r.count(CallResult.FATAL)).isEqualTo(1);
        assertThat(r.retries).hasValue(3);
        Counts report = g.report().totals();
        assertThat((long) r.count(CallResult.THROTTLED)).isEqualTo(report.throttled());
        assertThat((long) r.count(CallResult.GAVE_UP)).isEqualTo(report.gaveUp());
        assertThat((long) r.retries.get()).isEqualTo(report.retries());
        assertThat(asked).as("the listener is asked once per call scope").containsExactly(SUBNETS);
    }

    private static String thrower() throws ProviderException {
        throw GovernorTest.throttled();
    }

    @Test
    void aTripAndTheRefusalsAfterItAreHeard() throws Exception {
        Governor g = governor(b -> b.aws(a -> a.maxRetries(0)));
        for (int i = 0; i < 5; i++) {
            assertThatThrownBy(() -> g.call(SUBNETS, () -> { throw GovernorTest.throttled(); }))
                    .isInstanceOf(ProviderException.class);
        }
        assertThatThrownBy(() -> g.call(SUBNETS, () -> "x")).isInstanceOf(CircuitOpenException.class);
        assertThatThrownBy(() -> g.call(SUBNETS, () -> "x")).isInstanceOf(CircuitOpenException.class);
        Recorder r = byLeaf.get(SUBNETS);
        assertThat(r.trips).hasValue(1);
        assertThat(r.count(CallResult.REJECTED)).isEqualTo(2);
        assertThat(r.count(CallResult.SUCCESS)).isZero();
        assertThat((long) r.trips.get()).isEqualTo(g.report().totals().breakerTrips());
    }

    @Test
    void aWaitForTokensIsHeardWithItsLengthAndAnAdmissionWithoutWaitIsNot() throws Exception {
        Governor g = governor(b -> b.aws(a -> a.service("ec2", 1.0, 1.0)));
        g.call(VPCS, () -> "first"); // the one token of the burst
        g.call(VPCS, () -> "second"); // waits a second for the next
        Recorder r = byLeaf.get(g.leafOf(VPCS));
        assertThat(r.waits).hasSize(1);
        assertThat(r.waits.get(0)).isEqualTo(Duration.ofSeconds(1).toNanos());
        assertThat(r.count(CallResult.SUCCESS)).isEqualTo(2);
    }

    @Test
    void aReconfiguredGovernorAsksAgainAndOperationsOfAPerServiceLeafShareIt() throws Exception {
        Governor g = governor(b -> { });
        Scope buckets = Scope.of("aws", GovernorTest.ACCT, "us-east-1", "s3", "ListBuckets");
        Scope objects = Scope.of("aws", GovernorTest.ACCT, "us-east-1", "s3", "ListObjects");
        g.call(buckets, () -> 1);
        g.call(objects, () -> 2);
        assertThat(g.leafOf(buckets)).isEqualTo(buckets.withoutOperation());
        assertThat(asked).containsExactly(buckets.withoutOperation()); // one plan for the leaf, not one per operation
        assertThat(byLeaf.get(buckets.withoutOperation()).count(CallResult.SUCCESS)).isEqualTo(2);
        g.reconfigure(g.config());
        g.call(buckets, () -> 3);
        assertThat(asked).hasSize(2);
    }

    @Test
    void withoutAListenerTheGovernorHearsNothingAndSaysSo() {
        Governor g = Governor.builder().time(time).build();
        assertThat(g.listener()).isSameAs(GovernorListener.NONE);
        assertThat(GovernorListener.NONE.leaf(SUBNETS)).isSameAs(LeafListener.NONE);
    }

    @Test
    void theBulkheadsInUseAreListed() throws Exception {
        Governor g = governor(b -> { });
        assertThat(g.bulkheads()).isEmpty();
        g.call(SUBNETS, () -> 1);
        assertThat(g.bulkheads()).containsExactly(SUBNETS.accountScope());
    }
}
