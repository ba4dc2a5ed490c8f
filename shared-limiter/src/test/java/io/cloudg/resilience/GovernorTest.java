package io.cloudg.resilience;

import io.cloudg.resilience.spi.Scope;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.cloudg.resilience.config.RateLimitConfig;
import io.cloudg.resilience.core.BreakerState;
import io.cloudg.resilience.report.ThrottlingReport;
import io.cloudg.resilience.report.ThrottlingStats;
import io.cloudg.resilience.spi.ErrorClass;
import io.cloudg.resilience.spi.LeafView;
import io.cloudg.resilience.time.ManualTimeSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** The governor end to end on a manual clock: the worked numbers of the rate-limit guide, and the rules. */
class GovernorTest {
    static final String ACCT = "123456789012";
    static final Scope SUBNETS = Scope.of("aws", ACCT, "us-east-1", "ec2", "DescribeSubnets");
    static final Scope VPCS = Scope.of("aws", ACCT, "us-east-1", "ec2", "DescribeVpcs");
    static final Scope IMAGE_ATTR = Scope.of("aws", ACCT, "us-east-1", "ec2", "DescribeImageAttribute");

    static final long MS = 1_000_000L;

    final ManualTimeSource time = new ManualTimeSource();

    Governor governor(Consumer<RateLimitConfig.Builder> edit) {
        RateLimitConfig.Builder b = RateLimitConfig.builder();
        edit.accept(b);
        return Governor.builder().config(b.build()).time(time).random(() -> 0.0).build();
    }

    Governor governor() {
        return governor(b -> { });
    }

    static ProviderException throttled() {
        return new ProviderException("RequestLimitExceeded", 503, "Request limit exceeded.");
    }

    static ProviderException throttled(String retryAfter) {
        return new ProviderException("RequestLimitExceeded", 503, "Request limit exceeded.", retryAfter, null);
    }

    static ProviderException accessDenied() {
        return new ProviderException("AccessDenied", 403, "User is not authorized");
    }

    static double rate(Governor g, Scope leaf) {
        return g.store().snapshot().leaves().stream().filter(l -> l.leaf().equals(leaf)).mapToDouble(LeafView::rateRps)
                .findFirst().orElseThrow();
    }

    /** One attempt that the provider throttles, driven by hand. */
    static void throttleOnce(Governor g, Scope scope) throws InterruptedException {
        try (GovernedCall c = g.open(scope)) {
            c.beforeSend();
            c.onFailure(throttled());
        }
    }

    @Test
    void twentyRpsThrottledTwiceASecondApartRunsAtFiveAndRecoversInAboutSeventyFiveSeconds() throws Exception {
        Governor g = governor();
        throttleOnce(g, SUBNETS);
        time.advance(Duration.ofSeconds(1));
        throttleOnce(g, SUBNETS);
        assertThat(rate(g, SUBNETS)).isEqualTo(5.0);
        double throttledAt = time.seconds();
        while (rate(g, SUBNETS) < 20.0) {
            g.call(SUBNETS, () -> "ok");
            assertThat(time.seconds() - throttledAt).as("recovery took too long").isLessThan(200);
        }
        assertThat(time.seconds() - throttledAt).isCloseTo(75.0, within(1.0));
    }

    @Test
    void fortySimultaneousThrottlesHalveOnce() throws Exception {
        Governor g = governor();
        List<GovernedCall> calls = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            GovernedCall c = g.open(SUBNETS);
            assertThat(c.admit()).isZero();
            calls.add(c);
        }
        for (GovernedCall c : calls) {
            assertThat(c.onFailure(throttled()).retry()).isTrue();
            c.close();
        }
        assertThat(rate(g, SUBNETS)).isEqualTo(10.0);
    }

    @Test
    void aCallQueuedBeforeAThrottleReservesAgainAtTheHalvedRateInsteadOfSendingOnTime() throws Exception {
        Governor g = governor();
        for (int i = 0; i < 89; i++) { // the leaf's capacity is 90: burst 100 less 0.5 s of refill at 20/s
            try (GovernedCall c = g.open(IMAGE_ATTR)) {
                assertThat(c.admit()).isZero();
                c.onSuccess();
            }
        }
        GovernedCall out = g.open(IMAGE_ATTR);
        assertThat(out.admit()).isZero();
        GovernedCall early = g.open(IMAGE_ATTR);
        GovernedCall queued = g.open(IMAGE_ATTR);
        assertThat(early.admit()).isEqualTo(50 * MS);
        assertThat(queued.admit()).as("reserved at 20/s").isEqualTo(100 * MS);
        // the call that was already out comes back throttled while both wait: the leaf halves to 10/s
        time.advance(Duration.ofMillis(10));
        assertThat(out.onFailure(throttled()).retry()).isTrue();
        out.close();
        assertThat(rate(g, IMAGE_ATTR)).isEqualTo(10.0);
        time.advance(Duration.ofMillis(90));
        // both reservations were made at the old rate: neither goes out on its old time, each reserves
        // again behind what is queued, at 10/s (the first reservations stay taken: 2.9 tokens owed)
        assertThat(queued.recheckAfterWait()).isEqualTo(190 * MS);
        assertThat(early.recheckAfterWait()).isEqualTo(290 * MS);
        // once re-reserved, a call goes when its new time comes, unless another throttle arrives
        assertThat(queued.recheckAfterWait()).isZero();
        // a call reserved after the throttle was seen waits at the new rate and is not sent back
        GovernedCall later = g.open(IMAGE_ATTR);
        assertThat(later.admit()).isEqualTo(390 * MS);
        assertThat(later.recheckAfterWait()).isZero();
        for (GovernedCall c : List.of(early, queued, later)) {
            c.close();
        }
    }

    @Test
    void withoutAThrottleAWaitingCallGoesOnItsReservedTime() throws Exception {
        Governor g = governor();
        for (int i = 0; i < 90; i++) {
            try (GovernedCall c = g.open(IMAGE_ATTR)) {
                c.admit();
                c.onSuccess();
            }
        }
        try (GovernedCall c = g.open(IMAGE_ATTR)) {
            long wait = c.admit();
            assertThat(wait).isEqualTo(50 * MS);
            long before = time.nanoTime();
            c.waitForTokens(wait);
            assertThat(time.nanoTime() - before).as("slept exactly its reservation").isEqualTo(wait);
        }
    }

    @Test
    void thousandCallsOnATwentyRpsLeafTakeAboutFiftySimulatedSeconds() throws Exception {
        Governor g = governor();
        for (int i = 0; i < 1000; i++) {
            g.call(IMAGE_ATTR, () -> "ok");
        }
        // burst 100 at once, then 900 at 20/s
        assertThat(time.seconds()).isBetween(44.9, 50.0);
        ThrottlingReport r = g.report();
        assertThat(r.totals().calls()).isEqualTo(1000);
        assertThat(r.messages()).singleElement().asString()
                .matches("aws/123456789012/us-east-1/ec2: waited \\d+\\.\\ds for rate limit");
        assertThat(r.eventful()).isTrue();
    }

    // ------------------------------------------------------------------ fixed windows and charged quotas

    static final Scope ASSETS = Scope.of("gcp", "my-tools-project", null, "cloudasset", "ListAssets");
    static final Scope ORG_ASSETS = Scope.of("gcp", "organizations-42", null, "cloudasset", "ListAssetsPerOrganization");
    static final CallOptions.ChargedQuota ORG = new CallOptions.ChargedQuota(ORG_ASSETS, "organization");

    /** A RESOURCE_EXHAUSTED that says its quota's size and what it is counted per, as GCP's ErrorInfo does. */
    static Classification quotaExceeded(long calls, String per) {
        return new Classification(ErrorClass.THROTTLED, "RESOURCE_EXHAUSTED", 0, RetryAfter.NONE, "quota exceeded",
                io.cloudg.resilience.core.QuotaWindow.sized(calls, 60_000 * MS).per(per));
    }

    @Test
    void aThrottleThatSaysItsWindowTeachesTheLeafTheWindowsRate() throws Exception {
        Governor g = governor(b -> b.gcp(p -> p.service("cloudasset.ListAssets", 10, 10)));
        try (GovernedCall c = g.open(ASSETS)) {
            c.beforeSend();
            c.onFailure(new RuntimeException("quota"), quotaExceeded(100, "project"));
        }
        assertThat(rate(g, ASSETS)).as("100 a minute spread over 60.5 s").isEqualTo(100 / 60.5);
    }

    @Test
    void aCallChargedToTheOrganizationWaitsForTheSlowerLeafAndItsThrottlesGoWhereTheyBelong() throws Exception {
        Governor g = governor(b -> b.gcp(p -> p.service("cloudasset.ListAssets", 10, 1)
                .service("cloudasset.ListAssetsPerOrganization", 2, 1)));
        CallOptions opts = CallOptions.DEFAULT.charging(ORG);
        double t0 = time.seconds();
        for (int i = 0; i < 3; i++) {
            try (GovernedCall c = g.open(ASSETS, opts)) {
                c.beforeSend();
                c.onSuccess();
            }
        }
        assertThat(time.seconds() - t0).as("3 calls at the organization's 2/s, not the project's 10/s")
                .isCloseTo(1.0, within(0.01));
        try (GovernedCall c = g.open(ASSETS, opts)) {
            c.beforeSend();
            c.onFailure(new RuntimeException("quota"), quotaExceeded(800, "organization"));
        }
        assertThat(rate(g, ORG_ASSETS)).as("the organization's quota refused: its leaf halves").isEqualTo(1.0);
        assertThat(rate(g, ASSETS)).as("the project's leaf keeps its rate").isEqualTo(10.0);
        time.advance(Duration.ofSeconds(2));
        try (GovernedCall c = g.open(ASSETS, opts)) {
            c.beforeSend();
            c.onFailure(new RuntimeException("quota"), quotaExceeded(100, "project"));
        }
        assertThat(rate(g, ASSETS)).as("the consumer project's quota refused: 100/min").isEqualTo(100 / 60.5);
        assertThat(rate(g, ORG_ASSETS)).isEqualTo(1.0);
        assertThat(g.report().totals().calls()).as("a charged quota is no call of its own").isEqualTo(5);
    }

    @Test
    void anAccessDeniedStormNeverOpensABreaker() throws Exception {
        Governor g = governor(b -> b.aws(a -> a.maxRetries(0)));
        for (int round = 0; round < 20; round++) {
            for (int i = 0; i < 4; i++) {
                assertThatThrownBy(() -> g.call(SUBNETS, () -> { throw throttled(); }))
                        .isInstanceOf(ProviderException.class);
            }
            for (int i = 0; i < 50; i++) {
                assertThatThrownBy(() -> g.call(SUBNETS, () -> { throw accessDenied(); }))
                        .isInstanceOf(ProviderException.class).hasMessageContaining("not authorized");
            }
        }
        ThrottlingReport r = g.report();
        assertThat(r.totals().breakerTrips()).isZero();
        assertThat(r.totals().rejected()).isZero();
        assertThat(r.breakers()).isEmpty();
        assertThat(g.call(SUBNETS, () -> "still admitted")).isEqualTo("still admitted");
    }

    @Test
    void anExpiredProbeLeaseLetsTheNextCallProbe() throws Exception {
        Governor g = governor(b -> b.aws(a -> a.maxRetries(0).breakerProbeTimeoutSeconds(30.0)));
        for (int i = 0; i < 5; i++) {
            assertThatThrownBy(() -> g.call(SUBNETS, () -> { throw throttled(); })).isInstanceOf(ProviderException.class);
        }
        assertThatThrownBy(() -> g.call(SUBNETS, () -> "x"))
                .isInstanceOf(CircuitOpenException.class)
                .hasMessage("circuit open for aws/123456789012/us-east-1/ec2/DescribeSubnets after repeated throttling; retry in 60s");
        time.advance(Duration.ofSeconds(60));
        GovernedCall hung = g.open(SUBNETS); // the probe, which never answers
        hung.beforeSend();
        assertThatThrownBy(() -> g.call(SUBNETS, () -> "x")).isInstanceOf(CircuitOpenException.class)
                .hasMessageEndingWith("retry in 30s");
        time.advance(Duration.ofSeconds(30));
        assertThat(g.call(SUBNETS, () -> "probe")).isEqualTo("probe");
        assertThat(g.call(SUBNETS, () -> "closed")).isEqualTo("closed");
        hung.onSuccess(); // the stale probe's late answer changes nothing
        assertThat(g.report().breakers().get(SUBNETS.toString()).state()).isEqualTo("CLOSED");
        assertThat(g.report().breakers().get(SUBNETS.toString()).trips()).isEqualTo(1);
    }

    @Test
    void theFirstTwoRetriesOfACallCostNoBudget() throws Exception {
        Governor g = governor(b -> b.aws(a -> a.retryBudget(10)));
        AtomicInteger attempts = new AtomicInteger();
        g.call(VPCS, () -> {
            if (attempts.incrementAndGet() <= 2) {
                throw throttled();
            }
            return "ok";
        });
        assertThat(attempts).hasValue(3);
        assertThat(g.budget("aws").remaining()).as("two free retries, refund capped").isEqualTo(10.0);
        attempts.set(0);
        g.call(VPCS, () -> {
            if (attempts.incrementAndGet() <= 4) {
                throw throttled();
            }
            return "ok";
        });
        assertThat(g.budget("aws").remaining()).as("retries 3 and 4 cost one each, success refunds 0.1")
                .isCloseTo(8.1, within(1e-9));
    }

    @Test
    void anEmptyBudgetStopsRetriesAndNeverCountsForTheBreaker() throws Exception {
        Governor g = governor(b -> b.aws(a -> a.retryBudget(1).breakerThreshold(1)));
        TaskLedger ledger = TaskLedger.create("t");
        try (TaskLedger.Binding bound = ledger.bind()) {
            AtomicInteger attempts = new AtomicInteger();
            assertThatThrownBy(() -> g.call(VPCS, () -> {
                attempts.incrementAndGet();
                throw throttled();
            })).isInstanceOf(ProviderException.class);
            assertThat(attempts).as("2 free retries + 1 paid, then the budget is empty").hasValue(4);
        }
        assertThat(ledger.incompleteReason()).hasValue("throttled: 1 call(s) gave up after retries "
                + "(throttled: DescribeVpcs (retry budget exhausted): RequestLimitExceeded: Request limit exceeded.)");
        assertThat(g.call(VPCS, () -> "breaker still closed")).isEqualTo("breaker still closed");
    }

    @Test
    void aCallThatStaysThrottledGivesUpAndTheLedgerAndReportSaySo() throws Exception {
        Governor g = governor(b -> b.aws(a -> a.maxRetries(10)));
        ThrottlingStats run = new ThrottlingStats();
        TaskLedger subnets = TaskLedger.create("subnets", run);
        TaskLedger vpcs = TaskLedger.create("vpcs", run);
        try (TaskLedger.Binding b = subnets.bind()) {
            // a collector that swallows per-item errors
            try {
                g.call(SUBNETS, () -> { throw throttled(); });
            } catch (ProviderException swallowed) {
                // counted in the ledger anyway
            }
        }
        try (TaskLedger.Binding b = vpcs.bind()) {
            g.call(VPCS, () -> "vpc-1");
        }
        assertThat(vpcs.clean()).isTrue();
        assertThat(subnets.incompleteReason()).hasValue("throttled: 1 call(s) gave up after retries (throttled: "
                + "DescribeSubnets (retries exhausted): RequestLimitExceeded: Request limit exceeded.)");
        ThrottlingReport r = g.report(run);
        assertThat(r.totals().calls()).isEqualTo(2);
        assertThat(r.totals().throttled()).isEqualTo(11);
        assertThat(r.totals().retries()).isEqualTo(10);
        assertThat(r.totals().gaveUp()).isEqualTo(1);
        assertThat(r.skipped()).containsExactly(java.util.Map.entry("aws/123456789012/us-east-1/ec2",
                "throttled: DescribeSubnets (retries exhausted): RequestLimitExceeded: Request limit exceeded."));
        assertThat(r.slowedBuckets()).containsOnlyKeys("aws/123456789012/us-east-1/ec2/DescribeSubnets");
        assertThat(r.slowedBuckets().values().iterator().next().throttles()).isEqualTo(11);
        assertThat(r.messages()).singleElement().asString().matches(
                "aws/123456789012/us-east-1/ec2: throttled 11x, slowed to \\d+\\.\\d+ rps, 10 retries, 1 calls gave up");
        assertThat(r.scopes()).containsOnlyKeys("aws/123456789012/us-east-1/ec2");
    }

    @Test
    void backoffIsNeverShorterThanRetryAfter() throws Exception {
        Governor g = governor();
        AtomicInteger attempts = new AtomicInteger();
        g.call(VPCS, () -> {
            if (attempts.incrementAndGet() == 1) {
                throw throttled("7");
            }
            return "ok";
        });
        assertThat(time.seconds()).isGreaterThanOrEqualTo(7.0);
    }

    @Test
    void aMalformedRetryAfterIsIgnored() throws Exception {
        Governor g = governor();
        AtomicInteger attempts = new AtomicInteger();
        g.call(VPCS, () -> {
            if (attempts.incrementAndGet() == 1) {
                throw throttled("soon, maybe");
            }
            return "ok";
        });
        assertThat(time.seconds()).isLessThan(2.0);
    }

    @Test
    void theDeadlineEndsRetries() throws Exception {
        Governor g = governor(b -> b.aws(a -> a.deadlineSeconds(10.0)));
        TaskLedger ledger = TaskLedger.create("t");
        AtomicInteger attempts = new AtomicInteger();
        try (TaskLedger.Binding b = ledger.bind()) {
            assertThatThrownBy(() -> g.call(VPCS, () -> {
                attempts.incrementAndGet();
                throw throttled("4");
            })).isInstanceOf(ProviderException.class);
        }
        assertThat(attempts).hasValue(3);
        assertThat(ledger.incompleteReason().orElseThrow()).contains("DescribeVpcs (deadline exceeded)");
    }

    @Test
    void transientErrorsAreRetriedAndFatalOnesAreNot() throws Exception {
        Governor g = governor();
        AtomicInteger attempts = new AtomicInteger();
        assertThat(g.call(VPCS, () -> {
            if (attempts.incrementAndGet() < 3) {
                throw new java.net.SocketException("Connection reset");
            }
            return "ok";
        })).isEqualTo("ok");
        attempts.set(0);
        assertThatThrownBy(() -> g.call(VPCS, () -> {
            attempts.incrementAndGet();
            throw accessDenied();
        })).isInstanceOf(ProviderException.class);
        assertThat(attempts).hasValue(1);
        assertThat(g.report().totals().transientErrors()).isEqualTo(2);
        assertThat(rate(g, VPCS)).as("transient errors do not halve").isEqualTo(20.0);
    }

    @Test
    void aDisabledProviderIsNeitherPacedNorRetried() throws Exception {
        Governor g = governor(b -> b.aws(a -> a.enabled(false)));
        for (int i = 0; i < 1000; i++) {
            g.call(IMAGE_ATTR, () -> "ok");
        }
        assertThat(time.seconds()).isZero();
        AtomicInteger attempts = new AtomicInteger();
        assertThatThrownBy(() -> g.call(VPCS, () -> {
            attempts.incrementAndGet();
            throw throttled();
        })).isInstanceOf(ProviderException.class);
        assertThat(attempts).hasValue(1);
        Governor off = governor(b -> b.enabled(false));
        for (int i = 0; i < 500; i++) {
            off.call(Scope.of("gcp", "p", null, "cloudasset", "ListAssets"), () -> "ok");
        }
        assertThat(time.seconds()).isZero();
    }

    @Test
    void accountBucketPacesEveryServiceOfTheAccount() throws Exception {
        Governor g = governor(); // Azure: 20 rps, burst 200 per subscription
        for (int i = 0; i < 400; i++) {
            g.call(Scope.of("azure", "sub-1", null, i % 2 == 0 ? "network" : "compute", null), () -> "ok");
        }
        // network alone (30 rps, burst 200) and compute alone (15/100) would be faster; the account holds them to 20/s
        assertThat(time.seconds()).isCloseTo(10.0, within(0.5));
    }

    @Test
    void asyncCallsWaitWithoutHoldingAThreadAndRetry() {
        Governor g = governor();
        AtomicInteger attempts = new AtomicInteger();
        CompletableFuture<String> f = g.callAsync(VPCS, () -> {
            if (attempts.incrementAndGet() < 3) {
                return CompletableFuture.failedFuture(throttled());
            }
            return CompletableFuture.completedFuture("ok");
        });
        while (!f.isDone()) {
            assertThat(time.pendingDelays()).as("something must be pending while not done").isPositive();
            time.advance(Duration.ofMillis(100));
        }
        assertThat(f.join()).isEqualTo("ok");
        assertThat(attempts).hasValue(3);
        assertThat(g.report().totals().retries()).isEqualTo(2);
    }

    @Test
    void maxConcurrencyIsAHardCapAndWaitersAreServedInOrder() {
        Governor g = governor(b -> b.aws(a -> a.maxConcurrency(2)));
        List<CompletableFuture<String>> inFlight = new ArrayList<>();
        List<Integer> started = new ArrayList<>();
        List<CompletableFuture<String>> results = new ArrayList<>();
        Scope account = Scope.account("aws", ACCT);
        AtomicInteger maxInUse = new AtomicInteger();
        for (int i = 0; i < 5; i++) {
            int n = i;
            CompletableFuture<String> answer = new CompletableFuture<>();
            inFlight.add(answer);
            results.add(g.callAsync(Scope.of("aws", ACCT, "us-east-1", "iam", null), () -> {
                synchronized (started) {
                    started.add(n);
                }
                maxInUse.accumulateAndGet(g.store().slotsInUse(account), Math::max);
                return answer;
            }));
        }
        assertThat(started).containsExactly(0, 1);
        inFlight.get(0).complete("a");
        assertThat(started).containsExactly(0, 1, 2);
        inFlight.get(2).complete("c");
        inFlight.get(1).complete("b");
        assertThat(started).containsExactly(0, 1, 2, 3, 4);
        inFlight.get(3).complete("d");
        inFlight.get(4).complete("e");
        assertThat(results).allMatch(f -> f.isDone() && !f.isCompletedExceptionally());
        assertThat(maxInUse).hasValue(2);
        assertThat(g.store().slotsInUse(account)).isZero();
    }

    @Test
    void theProcesssCeilingOnCallsInFlightHoldsOverEveryAccountAndProviderAndServesInOrder() {
        Governor g = governor(b -> b.maxCallsInFlight(3));
        List<CompletableFuture<String>> answers = new ArrayList<>();
        List<String> started = new ArrayList<>();
        List<CompletableFuture<String>> results = new ArrayList<>();
        AtomicInteger most = new AtomicInteger();
        String[][] scopes = {{"aws", "111111111111"}, {"aws", "222222222222"}, {"azure", "sub-1"}, {"gcp", "my-project"},
                {"aws", "333333333333"}};
        for (String[] sc : scopes) {
            CompletableFuture<String> answer = new CompletableFuture<>();
            answers.add(answer);
            results.add(g.callAsync(Scope.of(sc[0], sc[1], "global", "svc", null), () -> {
                synchronized (started) {
                    started.add(sc[1]);
                }
                most.accumulateAndGet(g.callsInFlight(), Math::max);
                return answer;
            }));
        }
        // five accounts, each with room in its own bulkhead: the ceiling of three is what holds the other two
        assertThat(started).containsExactly("111111111111", "222222222222", "sub-1");
        assertThat(g.callsInFlight()).isEqualTo(3);
        assertThat(g.callsWaitingForCeiling()).isEqualTo(2);
        assertThat(g.hasRoomForCalls()).isFalse();
        answers.get(1).complete("b");
        assertThat(started).containsExactly("111111111111", "222222222222", "sub-1", "my-project");
        answers.get(0).complete("a");
        answers.get(2).complete("c");
        assertThat(started).hasSize(5);
        answers.get(3).complete("d");
        answers.get(4).complete("e");
        assertThat(results).allMatch(f -> f.isDone() && !f.isCompletedExceptionally());
        assertThat(most).hasValue(3);
        assertThat(g.callsInFlight()).isZero();
        assertThat(g.hasRoomForCalls()).isTrue();
    }

    @Test
    void aBlockedCallHoldsItsPlaceUntilItEndsAndAGaveUpOrRejectedOneGivesItBack() throws Exception {
        Governor g = governor(b -> b.maxCallsInFlight(1));
        GovernedCall first = g.open(VPCS);
        first.beforeSend();
        assertThat(first.holdsPlace()).isTrue();
        assertThat(g.callsInFlight()).isEqualTo(1);
        // a retry of the same call keeps its slot and its place (per call)
        assertThat(first.onFailure(throttled()).retry()).isTrue();
        assertThat(g.callsInFlight()).isEqualTo(1);
        first.close();
        assertThat(g.callsInFlight()).isZero();

        // per attempt (Azure): the place goes back with the slot after each attempt
        GovernedCall perAttempt = g.open(Scope.of("azure", "sub-1", "global", "compute", null), CallOptions.perAttempt());
        perAttempt.beforeSend();
        assertThat(g.callsInFlight()).isEqualTo(1);
        assertThat(perAttempt.onFailure(new ProviderException("TooManyRequests", 429, "slow down")).retry()).isTrue();
        assertThat(g.callsInFlight()).isZero();
        perAttempt.close();

        // a disabled provider's calls are neither paced nor retried, but they count: the ceiling is the process's
        Governor off = governor(b -> b.maxCallsInFlight(1).aws(a -> a.enabled(false)));
        assertThat(off.call(VPCS, () -> off.callsInFlight())).isEqualTo(1);
        assertThat(off.callsInFlight()).isZero();
    }

    @Test
    void aSlotHeldForAListingHoldsOnePlaceForAllItsPages() throws Exception {
        Governor g = governor(b -> b.maxCallsInFlight(2));
        Scope listing = Scope.of("gcp", "my-project", "global", "cloudasset", "ListAssets");
        try (SlotHold hold = g.holdSlot(listing)) {
            assertThat(g.callsInFlight()).isEqualTo(1);
            for (int page = 0; page < 3; page++) {
                g.call(listing, CallOptions.held(hold), () -> "page");
                assertThat(g.callsInFlight()).isEqualTo(1);
            }
        }
        assertThat(g.callsInFlight()).isZero();
    }

    @Test
    void aRaisedCeilingServesTheWaitersAtOnce() {
        Governor g = governor(b -> b.maxCallsInFlight(1));
        CompletableFuture<String> held = new CompletableFuture<>();
        CompletableFuture<String> first = g.callAsync(VPCS, () -> held);
        AtomicInteger second = new AtomicInteger();
        CompletableFuture<String> waiting = g.callAsync(Scope.of("aws", "999999999999", "us-east-1", "iam", null), () -> {
            second.incrementAndGet();
            return CompletableFuture.completedFuture("x");
        });
        assertThat(second).hasValue(0);
        g.reconfigure(RateLimitConfig.builder().maxCallsInFlight(2).build());
        assertThat(second).hasValue(1);
        assertThat(waiting).isCompletedWithValue("x");
        held.complete("y");
        assertThat(first).isCompletedWithValue("y");
        assertThat(g.callsInFlight()).isZero();
    }

    @Test
    void operationsGetTheirOwnBucketOnlyWhereTheyMatter() {
        Governor g = governor(b -> b.aws(a -> a.service("ssm", io.cloudg.resilience.config.ServiceLimit.of(10, 20)
                .perOperation(true)).service("s3.ListObjectsV2", 3, 6)));
        assertThat(g.leafOf(SUBNETS)).hasToString("aws/123456789012/us-east-1/ec2/DescribeSubnets");
        assertThat(g.leafOf(Scope.of("aws", ACCT, "us-east-1", "iam", "ListRoles")))
                .hasToString("aws/123456789012/us-east-1/iam");
        assertThat(g.leafOf(Scope.of("aws", ACCT, "us-east-1", "ssm", "DescribeParameters")))
                .hasToString("aws/123456789012/us-east-1/ssm/DescribeParameters");
        assertThat(g.leafOf(Scope.of("aws", ACCT, "us-east-1", "s3", "ListObjectsV2")))
                .hasToString("aws/123456789012/us-east-1/s3/ListObjectsV2");
        assertThat(g.leafOf(Scope.of("aws", ACCT, "us-east-1", "s3", "ListBuckets")))
                .hasToString("aws/123456789012/us-east-1/s3");
        assertThat(g.leafOf(Scope.of("gcp", "proj", null, "cloudasset", "ListAssets")))
                .hasToString("gcp/proj/cloudasset/ListAssets");
        assertThat(g.leafOf(Scope.of("azure", "sub", null, "network", "ListVirtualNetworks")))
                .hasToString("azure/sub/network");
    }

    @Test
    void operationsSharingALeafShareItsPlanAndKeepTheirOwnScope() {
        Governor g = governor();
        Scope buckets = Scope.of("aws", ACCT, "us-east-1", "s3", "ListBuckets");
        Scope location = Scope.of("aws", ACCT, "us-east-1", "s3", "GetBucketLocation");
        try (GovernedCall a = g.open(buckets); GovernedCall b = g.open(location)) {
            assertThat(b.leaf()).isSameAs(a.leaf()).isEqualTo(buckets.withoutOperation());
            assertThat(a.scope()).isEqualTo(buckets);
            assertThat(b.scope()).isEqualTo(location);
        }
    }

    @Test
    void eachRunCountsItsOwnCallsOfALeafTheRunsShare() throws Exception {
        Governor g = governor();
        ThrottlingStats first = new ThrottlingStats();
        ThrottlingStats second = new ThrottlingStats();
        for (ThrottlingStats run : List.of(first, second, first, first)) {
            try (TaskLedger.Binding bound = TaskLedger.create("task", run).bind()) {
                g.call(SUBNETS, () -> "ok");
            }
        }
        assertThat(first.totals().calls()).isEqualTo(3);
        assertThat(second.totals().calls()).isEqualTo(1);
        assertThat(first.countsByScope()).containsOnlyKeys(SUBNETS.withoutOperation());
        assertThat(g.stats().totals().calls()).isEqualTo(4);
    }

    @Test
    void reconfigureKeepsLearnedState() throws Exception {
        Governor g = governor();
        throttleOnce(g, SUBNETS);
        g.reconfigure(RateLimitConfig.builder().aws(a -> a.breakerThreshold(9)).build());
        assertThat(rate(g, SUBNETS)).isEqualTo(10.0);
        assertThat(g.config().provider("aws").breakerThreshold()).isEqualTo(9);
    }

    @Test
    void breakerStateAppearsInTheReport() throws Exception {
        Governor g = governor(b -> b.aws(a -> a.maxRetries(0)));
        for (int i = 0; i < 5; i++) {
            assertThatThrownBy(() -> g.call(SUBNETS, () -> { throw throttled(); })).isInstanceOf(ProviderException.class);
        }
        TaskLedger ledger = TaskLedger.create("t");
        try (TaskLedger.Binding b = ledger.bind()) {
            assertThatThrownBy(() -> g.call(SUBNETS, () -> "x")).isInstanceOf(CircuitOpenException.class);
        }
        assertThat(ledger.circuitSkipped()).isEqualTo(1);
        assertThat(ledger.incompleteReason().orElseThrow()).startsWith("throttled: 1 call(s) skipped by open circuit "
                + "(circuit open for aws/123456789012/us-east-1/ec2/DescribeSubnets after repeated throttling; retry in");
        ThrottlingReport r = g.report();
        assertThat(r.breakers().get(SUBNETS.toString()).state()).isEqualTo(BreakerState.Phase.OPEN.name());
        assertThat(r.totals().breakerTrips()).isEqualTo(1);
        assertThat(r.totals().rejected()).isEqualTo(1);
        assertThat(r.messages()).singleElement().asString().contains("1 calls rejected by open circuit", "circuit opened 1x");
    }

    @Test
    void aQuietRunHasNothingEventful() throws Exception {
        Governor g = governor();
        for (int i = 0; i < 10; i++) {
            g.call(VPCS, () -> "ok");
        }
        assertThat(g.report().eventful()).isFalse();
        assertThat(g.report().messages()).isEmpty();
    }

    @Test
    void anSdksOwnLoopKeepsItsBackoffAndItsDeadlineEndsTheCallAsAGiveUp() throws Exception {
        Governor g = governor(b -> b.aws(a -> a.maxBackoffSeconds(1.0).deadlineSeconds(2.0)));
        TaskLedger ledger = TaskLedger.create("t");
        try (TaskLedger.Binding bound = ledger.bind(); GovernedCall c = g.open(VPCS)) {
            c.beforeSend();
            Classification transientError = new Classification(ErrorClass.TRANSIENT, "InternalError", 500, -1, "InternalError: x");
            for (int i = 0; i < 6; i++) {
                AttemptDecision d = c.onSdkFailure(new ProviderException("InternalError", 500, "x"), transientError, true);
                assertThat(d.retry()).as("the SDK's loop: no governor deadline, no governor max_retries").isTrue();
                assertThat(d.backoffNanos()).as("and no governor backoff on top of the SDK's").isZero();
                time.advance(Duration.ofSeconds(1));
            }
            c.onDeadline(new RuntimeException("Client execution did not complete before the specified timeout"));
        }
        assertThat(ledger.incompleteReason()).as("the SDK's own timeout is a give-up, in the last attempt's kind")
                .hasValueSatisfying(r -> assertThat(r).startsWith("transient: 1 call(s) gave up")
                        .contains("DescribeVpcs (deadline exceeded)"));
        try (GovernedCall c = g.open(SUBNETS)) {
            c.beforeSend();
            Classification t = new Classification(ErrorClass.TRANSIENT, "InternalError", 500, -1, "x");
            AttemptDecision own = c.onFailure(new ProviderException("InternalError", 500, "x"), t);
            assertThat(own.backoffNanos()).as("the governor's own loop draws its jitter").isBetween(500 * MS, 1_000 * MS);
        }
    }

    @Test
    void admitNeverEndsAnSdksOwnLoopAtTheGovernorsDeadlineButEndsTheGovernorsOwn() throws Exception {
        Governor g = governor(b -> b.aws(a -> a.deadlineSeconds(1.0)));
        TaskLedger ledger = TaskLedger.create("t");
        Classification throttle = new Classification(ErrorClass.THROTTLED, "RequestLimitExceeded", 503, -1,
                "RequestLimitExceeded: Request limit exceeded.");
        try (TaskLedger.Binding bound = ledger.bind(); GovernedCall c = g.open(SUBNETS, CallOptions.forSdkLoop())) {
            c.waitForTokens(c.admit());
            c.awaitSlot();
            for (int attempt = 2; attempt <= 4; attempt++) {
                assertThat(c.onSdkFailure(throttled(), throttle, true).retry()).isTrue();
                time.advance(Duration.ofSeconds(1));
                // the SDK asks for its next attempt's token past deadline_seconds: admit() must not end its loop
                c.waitForTokens(c.admit());
                assertThat(c.attempts()).isEqualTo(attempt);
            }
            AttemptDecision last = c.onSdkFailure(throttled(), throttle, false);
            assertThat(last.kind()).as("the SDK's attempts ran out").isEqualTo(AttemptDecision.Kind.GIVE_UP);
        }
        assertThat(ledger.incompleteReason()).as("the guide's PARTIAL reason, not a DeadlineExceededException")
                .hasValueSatisfying(r -> assertThat(r).startsWith("throttled: 1 call(s) gave up")
                        .contains("DescribeSubnets (retries exhausted): RequestLimitExceeded: Request limit exceeded."));
        assertThat(g.report().totals().gaveUp()).isEqualTo(1);

        try (GovernedCall own = g.open(VPCS)) {
            own.waitForTokens(own.admit());
            time.advance(Duration.ofSeconds(2));
            assertThatThrownBy(own::admit).as("cloudg's own loop still ends at deadline_seconds")
                    .isInstanceOf(DeadlineExceededException.class)
                    .hasMessageContaining("deadline of 1.0s spent before DescribeVpcs (deadline exceeded)");
        }
    }
}
