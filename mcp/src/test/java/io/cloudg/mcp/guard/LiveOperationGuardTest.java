package io.cloudg.mcp.guard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cloudg.mcp.config.LiveLimits;
import io.cloudg.resilience.testkit.Threads;
import io.cloudg.resilience.time.ManualTimeSource;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The guard itself, on the in-memory store and a manual clock; works are held by latches, never by sleeps. */
class LiveOperationGuardTest {
    private final ManualTimeSource time = new ManualTimeSource();
    private final Events events = new Events();
    private LiveOperationGuard guard;

    static final Principal ALICE = Principal.of("alice", Role.OPERATOR);
    static final Principal VIC = Principal.of("vic", Role.VIEWER);

    /** Counts the guard's decisions and lets a test wait for the n-th join. */
    static final class Events implements GuardListener {
        final CountDownLatch joined = new CountDownLatch(1);
        final CountDownLatch started = new CountDownLatch(1);
        final AtomicInteger finished = new AtomicInteger();

        @Override
        public void joined(String id, LiveCall call, Principal p) {
            joined.countDown();
        }

        @Override
        public void started(String id, LiveCall call, Principal p, boolean forced) {
            started.countDown();
        }

        @Override
        public void finished(String id, LiveCall call, OperationState state, long ms) {
            finished.incrementAndGet();
        }
    }

    LiveOperationGuard guard(LiveLimits live) {
        guard = new LiveOperationGuard(new InMemoryGuardStore(time), time, live.withCooldownSeconds("aws", 300),
                providers -> providers.contains("aws") ? Optional.of("ds-newest") : Optional.empty(), events);
        return guard;
    }

    @AfterEach
    void close() {
        if (guard != null) {
            guard.close();
        }
    }

    static LiveCall call(String identity, String... scopes) {
        return new LiveCall("map_inventory", identity, List.of(scopes).stream().map(LiveScope::parse).toList());
    }

    @Test
    void identicalCallsInFlightShareOneRun() throws Exception {
        LiveOperationGuard g = guard(LiveLimits.DEFAULTS);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger runs = new AtomicInteger();
        LiveWork<String> work = id -> {
            runs.incrementAndGet();
            release.await();
            return "map of " + id;
        };
        CompletableFuture<GuardOutcome<String>> first = Threads.async(() -> run(g, ALICE, work));
        events.started.await(10, TimeUnit.SECONDS);
        CompletableFuture<GuardOutcome<String>> second = Threads.async(() -> run(g, VIC, work));
        assertThat(events.joined.await(10, TimeUnit.SECONDS)).isTrue();
        release.countDown();
        GuardOutcome<String> a = first.get(10, TimeUnit.SECONDS);
        GuardOutcome<String> b = second.get(10, TimeUnit.SECONDS);
        assertThat(runs).hasValue(1);
        assertThat(a.joined()).isFalse();
        assertThat(b.joined()).isTrue();
        assertThat(b.operationId()).isEqualTo(a.operationId());
        assertThat(b.value()).isEqualTo(a.value()).startsWith("map of op-");
    }

    @Test
    void aSecondOperationOnABusyScopeIsRefusedWithTheNewestDataset() throws Exception {
        LiveOperationGuard g = guard(LiveLimits.DEFAULTS);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<GuardOutcome<String>> first = Threads.async(() -> run(g, ALICE, id -> {
            release.await();
            return "done";
        }));
        events.started.await(10, TimeUnit.SECONDS);
        assertThatThrownBy(() -> g.run(call("other", "aws/1"), ALICE, false, id -> "never"))
                .isInstanceOfSatisfying(LiveRefusedException.class, e -> {
                    Refusal r = e.refusal();
                    assertThat(r.reason()).isEqualTo(RefusalReason.BUSY);
                    assertThat(r.retryAfterSeconds()).isEqualTo(300);
                    assertThat(r.useDataset()).isEqualTo("ds-newest");
                    assertThat(r.scopes()).containsExactly("aws/1");
                });
        release.countDown();
        assertThat(first.get(10, TimeUnit.SECONDS).succeeded()).isTrue();
    }

    @Test
    void aFailedOperationCoolsItsScopesDownToo() throws Exception {
        LiveOperationGuard g = guard(LiveLimits.DEFAULTS);
        GuardOutcome<String> failed = g.run(call("m", "aws/1"), ALICE, false, id -> {
            throw new IllegalStateException("RequestLimitExceeded");
        });
        assertThat(failed.state()).isEqualTo(OperationState.FAILED);
        assertThat(failed.error()).contains("RequestLimitExceeded");
        assertThatThrownBy(() -> g.run(call("m", "aws/1"), ALICE, false, id -> "x"))
                .isInstanceOfSatisfying(LiveRefusedException.class, e -> {
                    assertThat(e.refusal().reason()).isEqualTo(RefusalReason.COOLDOWN);
                    assertThat(e.refusal().retryAfterSeconds()).as("the aws override").isEqualTo(300);
                });
        time.advance(Duration.ofSeconds(300));
        assertThat(g.run(call("m", "aws/1"), ALICE, false, id -> "x").succeeded()).isTrue();
    }

    @Test
    void forceSkipsTheCooldownForAnOperatorAndIsRefusedForAViewer() throws Exception {
        LiveOperationGuard g = guard(LiveLimits.DEFAULTS);
        g.run(call("m", "aws/1"), ALICE, false, id -> "x");
        assertThatThrownBy(() -> g.run(call("m", "aws/1"), VIC, true, id -> "x"))
                .isInstanceOf(ForceNotAllowedException.class).hasMessageContaining("vic has viewer");
        assertThat(g.run(call("m", "aws/1"), ALICE, true, id -> "x").succeeded()).isTrue();
    }

    @Test
    void theCallerQuotaRefusesTheNextStart() throws Exception {
        LiveOperationGuard g = guard(LiveLimits.DEFAULTS.withCallerMaxOperations(1).withCallerWindowSeconds(600));
        g.run(call("a", "aws/1"), ALICE, false, id -> "x");
        assertThatThrownBy(() -> g.run(call("b", "aws/2"), ALICE, false, id -> "x"))
                .isInstanceOfSatisfying(LiveRefusedException.class, e -> {
                    assertThat(e.refusal().reason()).isEqualTo(RefusalReason.QUOTA);
                    assertThat(e.refusal().retryAfterSeconds()).isEqualTo(600);
                });
        assertThat(g.run(call("b", "aws/2"), VIC, false, id -> "x").succeeded()).isTrue();
    }

    @Test
    void aTimedOutOperationIsInterruptedAndFreesItsScopes() throws Exception {
        LiveOperationGuard g = guard(LiveLimits.DEFAULTS.withOperationTimeoutSeconds(3600));
        CountDownLatch interrupted = new CountDownLatch(1);
        CountDownLatch working = new CountDownLatch(1);
        CompletableFuture<GuardOutcome<String>> stuck = Threads.async(() -> run(g, ALICE, id -> {
            working.countDown();
            try {
                new CountDownLatch(1).await();
                return "never";
            } catch (InterruptedException e) {
                interrupted.countDown();
                throw e;
            }
        }));
        assertThat(working.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(g.snapshot(ALICE).inFlight()).hasSize(1);
        time.advance(Duration.ofSeconds(3599));
        assertThat(stuck).isNotDone();
        time.advance(Duration.ofSeconds(1));
        GuardOutcome<String> out = stuck.get(10, TimeUnit.SECONDS);
        assertThat(out.state()).isEqualTo(OperationState.TIMED_OUT);
        assertThat(out.error()).contains("live_operation_timeout_seconds (3600 s)");
        assertThat(interrupted.await(10, TimeUnit.SECONDS)).isTrue();
        GuardSnapshot snap = g.snapshot(ALICE);
        assertThat(snap.inFlight()).isEmpty();
        assertThat(snap.cooldownUntilMillis()).containsKey("aws/1");
        assertThat(g.runningHere()).isEmpty();
        assertThat(events.finished).as("the late FAILED from the interrupted work is ignored").hasValue(1);
    }

    @Test
    void aLongOperationKeepsItsScopesByRenewingItsLease() throws Exception {
        LiveOperationGuard g = guard(LiveLimits.DEFAULTS);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<GuardOutcome<String>> running = Threads.async(() -> run(g, ALICE, id -> {
            release.await();
            return "done";
        }));
        events.started.await(10, TimeUnit.SECONDS);
        for (int i = 0; i < 5; i++) {
            time.advance(Duration.ofSeconds(100)); // 500 s: four leases of 120 s, renewed every 30 s of them
        }
        assertThat(g.snapshot(ALICE).inFlight()).hasSize(1);
        assertThatThrownBy(() -> g.run(call("other", "aws/1"), ALICE, false, id -> "x"))
                .isInstanceOfSatisfying(LiveRefusedException.class, e ->
                        assertThat(e.refusal().reason()).isEqualTo(RefusalReason.BUSY));
        release.countDown();
        assertThat(running.get(10, TimeUnit.SECONDS).succeeded()).isTrue();
    }

    @Test
    void closingTheGuardCancelsWhatRunsAndCoolsItDown() throws Exception {
        LiveOperationGuard g = guard(LiveLimits.DEFAULTS);
        CompletableFuture<GuardOutcome<String>> stuck = Threads.async(() -> run(g, ALICE, id -> {
            new CountDownLatch(1).await();
            return "never";
        }));
        events.started.await(10, TimeUnit.SECONDS);
        g.close();
        assertThat(stuck.get(10, TimeUnit.SECONDS).state()).isEqualTo(OperationState.CANCELLED);
        assertThat(g.store().snapshot("alice", 1000).cooldownUntilMillis()).containsKey("aws/1");
    }

    private static GuardOutcome<String> run(LiveOperationGuard g, Principal p, LiveWork<String> work) {
        try {
            return g.run(call("map_inventory {}", "aws/1"), p, false, work);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
