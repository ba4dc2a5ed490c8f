package io.cloudg.metrics;

import io.cloudg.Governors;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cloudg.resilience.CircuitOpenException;
import io.cloudg.resilience.Governor;
import io.cloudg.resilience.ProviderException;
import io.cloudg.resilience.spi.Scope;
import io.cloudg.resilience.SlotHold;
import io.cloudg.resilience.config.RateLimitConfig;
import io.cloudg.resilience.memory.InMemoryStateStore;
import io.cloudg.resilience.redis.DegradingStateStore;
import io.cloudg.resilience.spi.StateStore;
import io.cloudg.resilience.time.ManualTimeSource;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Each family of the governor's metrics moves as the governor does, on a manual clock. */
class GovernorMetricsTest {
    static final String ACCT = "123456789012";
    static final Scope SUBNETS = Scope.of("aws", ACCT, "us-east-1", "ec2", "DescribeSubnets");
    static final Scope BUCKETS = Scope.of("aws", ACCT, "us-east-1", "s3", "ListBuckets");

    final ManualTimeSource time = new ManualTimeSource();
    CloudgMetrics metrics = CloudgMetrics.open(MetricsSettings.DEFAULTS.withStateRefresh(Duration.ZERO), "test", time);

    @AfterEach
    void close() {
        metrics.close();
    }

    Governor governor(Consumer<RateLimitConfig.Builder> edit) {
        return governor(edit, new InMemoryStateStore(time));
    }

    Governor governor(Consumer<RateLimitConfig.Builder> edit, StateStore store) {
        RateLimitConfig.Builder b = RateLimitConfig.builder();
        edit.accept(b);
        return Governors.build(Governor.builder().config(b.build()).time(time).random(() -> 0.0).store(store), metrics);
    }

    static ProviderException throttled() {
        return new ProviderException("RequestLimitExceeded", 503, "Request limit exceeded.");
    }

    MeterRegistry r() {
        return metrics.registry();
    }

    double calls(String service, String operation, String outcome) {
        FunctionCounter c = r().find("cloudg.governor.calls").tags("provider", "aws", "service", service, "operation", operation,
                "outcome", outcome).functionCounter();
        return c == null ? 0 : c.count();
    }

    double gauge(String name, String... tags) {
        metrics.refresh();
        Gauge g = r().find(name).tags(tags).gauge();
        return g == null ? Double.NaN : g.value();
    }

    @Test
    void aThrottledCallRaisesTheThrottledCounterAndItsRetryTheRetries() throws Exception {
        Governor g = governor(b -> { });
        AtomicInteger attempts = new AtomicInteger();
        g.call(SUBNETS, () -> {
            if (attempts.incrementAndGet() == 1) {
                throw throttled();
            }
            return "ok";
        });
        assertThat(calls("ec2", "DescribeSubnets", "throttled")).isEqualTo(1);
        assertThat(calls("ec2", "DescribeSubnets", "success")).isEqualTo(1);
        assertThat(calls("ec2", "DescribeSubnets", "gave_up")).as("registered at zero").isZero();
        assertThat(r().find("cloudg.governor.retries").tags("service", "ec2", "operation", "DescribeSubnets").functionCounter()
                .count()).isEqualTo(1);
        assertThat(r().find("cloudg.governor.calls").tags("service", "ec2").functionCounters()).as("every outcome").hasSize(6);
    }

    @Test
    void aSlowedLeafShowsItsRateAgainstItsCeilingAndRecovers() throws Exception {
        Governor g = governor(b -> b.aws(a -> a.maxRetries(0)));
        assertThat(r().find("cloudg.governor.slowed.leaves").gauges()).isEmpty();
        assertThatThrownBy(() -> g.call(SUBNETS, () -> { throw throttled(); })).isInstanceOf(ProviderException.class);
        String[] labels = {"provider", "aws", "service", "ec2", "operation", "DescribeSubnets"};
        assertThat(gauge("cloudg.governor.slowed.leaves", labels)).isEqualTo(1);
        assertThat(gauge("cloudg.governor.slowed.leaf.ceiling.per.second", labels)).isEqualTo(20.0);
        assertThat(gauge("cloudg.governor.slowed.leaf.rate.per.second", labels)).isEqualTo(10.0);
        for (int i = 0; i < 2000 && gauge("cloudg.governor.slowed.leaves", labels) == 1; i++) {
            g.call(SUBNETS, () -> "ok");
            time.advance(Duration.ofMillis(100));
        }
        assertThat(r().find("cloudg.governor.slowed.leaves").gauges()).as("recovered leaves leave the gauge").isEmpty();
    }

    @Test
    void aTrippedBreakerIsCountedAndShownOpenThenRefusalsAreRejected() throws Exception {
        Governor g = governor(b -> b.aws(a -> a.maxRetries(0)));
        for (int i = 0; i < 5; i++) {
            assertThatThrownBy(() -> g.call(SUBNETS, () -> { throw throttled(); })).isInstanceOf(ProviderException.class);
        }
        assertThatThrownBy(() -> g.call(SUBNETS, () -> "x")).isInstanceOf(CircuitOpenException.class);
        assertThat(r().find("cloudg.governor.breaker.trips").tags("operation", "DescribeSubnets").functionCounter().count()).isEqualTo(1);
        assertThat(calls("ec2", "DescribeSubnets", "rejected")).isEqualTo(1);
        assertThat(calls("ec2", "DescribeSubnets", "gave_up")).isEqualTo(5);
        assertThat(gauge("cloudg.governor.breakers", "operation", "DescribeSubnets", "state", "open")).isEqualTo(1);
        time.advance(Duration.ofSeconds(61));
        g.call(SUBNETS, () -> "probe");
        assertThat(gauge("cloudg.governor.breakers", "operation", "DescribeSubnets", "state", "closed"))
                .as("closed again, after a trip").isEqualTo(1);
        assertThat(r().find("cloudg.governor.breakers").tags("operation", "DescribeSubnets", "state", "open").gauges()).isEmpty();
        assertThat(r().find("cloudg.governor.breakers").tags("state", "open").gauges()).as("the providers' rows at 0")
                .isNotEmpty().allSatisfy(row -> assertThat(row.value()).isZero());
    }

    @Test
    void theBreakerGaugeHasAZeroForEachProviderAndStateBeforeAnyBreakerOpens() throws Exception {
        governor(b -> b.azure(a -> a.enabled(false)));
        String text = metrics.scrape();
        for (String state : new String[] {"closed", "open", "half_open"}) {
            assertThat(text).contains("cloudg_governor_breakers{provider=\"aws\",state=\"" + state + "\"} 0.0")
                    .contains("cloudg_governor_breakers{provider=\"gcp\",state=\"" + state + "\"} 0.0");
        }
        assertThat(text).as("a disabled provider has none").doesNotContain("cloudg_governor_breakers{provider=\"azure\"");
    }

    @Test
    void theRetryBudgetGaugeFallsAsPaidRetriesAreTaken() throws Exception {
        Governor g = governor(b -> b.aws(a -> a.retryBudget(10).maxRetries(4)));
        g.call(SUBNETS, () -> "first"); // the provider is known once it has a call
        assertThat(gauge("cloudg.governor.retry.budget.remaining", "provider", "aws")).isEqualTo(10.0);
        assertThat(gauge("cloudg.governor.retry.budget.size", "provider", "aws")).isEqualTo(10.0);
        assertThatThrownBy(() -> g.call(SUBNETS, () -> { throw throttled(); })).isInstanceOf(ProviderException.class);
        assertThat(gauge("cloudg.governor.retry.budget.remaining", "provider", "aws")).as("retries 3 and 4 are paid")
                .isEqualTo(8.0);
    }

    @Test
    void aHeldSlotIsInUseUntilReleased() throws Exception {
        Governor g = governor(b -> b.aws(a -> a.maxConcurrency(7)));
        SlotHold hold = g.holdSlot(SUBNETS);
        assertThat(gauge("cloudg.governor.bulkhead.slots.in.use", "provider", "aws")).isEqualTo(1);
        assertThat(gauge("cloudg.governor.bulkhead.slots.limit", "provider", "aws")).isEqualTo(7);
        hold.close();
        assertThat(gauge("cloudg.governor.bulkhead.slots.in.use", "provider", "aws")).isZero();
    }

    @Test
    void callsInFlightAreThisProcesssOwnAndReadLiveAgainstTheCeiling() throws Exception {
        Governor g = governor(b -> b.maxCallsInFlight(300));
        SlotHold hold = g.holdSlot(SUBNETS);
        Scope azure = Scope.of("azure", "sub-1", "global", "compute", null);
        io.cloudg.resilience.GovernedCall call = g.open(azure);
        call.beforeSend();
        assertThat(metrics.scrape()).contains("cloudg_calls_in_flight 2.0").contains("cloudg_calls_in_flight_limit 300.0");
        call.onSuccess();
        call.close();
        hold.close();
        assertThat(metrics.scrape()).contains("cloudg_calls_in_flight 0.0");
    }

    @Test
    void aWaitForTokensLandsInTheHistogram() throws Exception {
        Governor g = governor(b -> b.aws(a -> a.service("ec2", 1.0, 1.0)));
        g.call(SUBNETS, () -> "burst");
        g.call(SUBNETS, () -> "waits a second");
        Timer t = r().find("cloudg.governor.token.wait").tags("provider", "aws", "service", "ec2").timer();
        assertThat(t.count()).isEqualTo(1);
        assertThat(t.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(1000.0);
        assertThat(metrics.scrape()).contains("cloudg_governor_token_wait_seconds_bucket{provider=\"aws\",service=\"ec2\",le=\"1.0\"} 1");
    }

    @Test
    void aPerServiceLeafHasNoOperationLabelAndPerAccountAddsAccountAndRegion() throws Exception {
        Governor g = governor(b -> { });
        g.call(BUCKETS, () -> 1);
        g.call(SUBNETS, () -> 1);
        FunctionCounter perService = r().find("cloudg.governor.calls").tags("provider", "aws", "service", "s3",
                "outcome", "success").functionCounter();
        assertThat(perService.count()).isEqualTo(1);
        assertThat(perService.getId().getTag("operation")).as("no operation label on a per-service leaf").isNull();
        String text = metrics.scrape();
        assertThat(text).doesNotContain(ACCT).doesNotContain("=\"\"")
                .contains("cloudg_governor_calls_total{outcome=\"success\",provider=\"aws\",service=\"s3\"} 1")
                .contains("cloudg_governor_calls_total{operation=\"DescribeSubnets\",outcome=\"success\",provider=\"aws\",service=\"ec2\"} 1");
        metrics.close();
        metrics = CloudgMetrics.open(MetricsSettings.DEFAULTS.withPerAccount(true), "test", time);
        Governor perAccount = governor(b -> { });
        perAccount.call(BUCKETS, () -> 1);
        assertThat(r().find("cloudg.governor.calls").tags("account", ACCT, "region", "us-east-1", "outcome", "success")
                .functionCounter().count()).isEqualTo(1);
    }

    @Test
    void theDegradedFlagRisesWhileTheSharedStoreIsOutOfReach() throws Exception {
        Unreachable shared = new Unreachable(new InMemoryStateStore(time));
        DegradingStateStore store = new DegradingStateStore(shared, () -> !shared.down, new InMemoryStateStore(time), 3,
                time, Duration.ofSeconds(1).toNanos(), "redis");
        Governor g = governor(b -> { }, TimedStateStore.wrap(store, metrics));
        g.call(SUBNETS, () -> "up");
        assertThat(gauge("cloudg.governor.degraded")).isZero();
        shared.down = true;
        g.call(SUBNETS, () -> "paced locally");
        assertThat(gauge("cloudg.governor.degraded")).isEqualTo(1);
        time.advance(Duration.ofSeconds(5));
        assertThat(r().find("cloudg.governor.degraded.seconds").functionCounter().count())
                .as("5 s, and the 150 ms the first local call waited: an episode starts with the local bucket drained")
                .isEqualTo(5.15);
        shared.down = false;
        time.advance(Duration.ofSeconds(2));
        g.call(SUBNETS, () -> "back");
        assertThat(gauge("cloudg.governor.degraded")).isZero();
        assertThat(r().find("cloudg.governor.degraded.episodes").functionCounter().count()).isEqualTo(1);
        assertThat(r().find("cloudg.redis.command").tags("command", "admit", "outcome", "ok").timer().count())
                .as("the store's admissions are timed, the local fallback's too").isGreaterThanOrEqualTo(3);
    }

    @Test
    void withoutMetricsTheGovernorHasNoListenerAndNothingIsRegistered() throws Exception {
        CloudgMetrics none = CloudgMetrics.none();
        Governor g = Governors.build(Governor.builder().time(time), none);
        g.call(SUBNETS, () -> 1);
        assertThat(g.listener()).isSameAs(io.cloudg.resilience.spi.GovernorListener.NONE);
        assertThat(none.scrape()).isEmpty();
        assertThat(TimedStateStore.wrap(g.store(), none)).isSameAs(g.store());
    }
}
