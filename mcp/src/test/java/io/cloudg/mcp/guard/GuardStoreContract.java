package io.cloudg.mcp.guard;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * What every {@link GuardStore} must do ({@link GuardRules} and the store contract). Subclasses give a
 * fresh store and a way to move its clock; {@link #slackMillis()} is how much a store's own clock may have
 * moved on its own during a test (0 for a manual clock).
 */
public abstract class GuardStoreContract {
    protected static final long COOLDOWN = 120_000;
    protected static final long LEASE = 3_660_000;

    protected abstract GuardStore store();

    protected abstract void advance(Duration d);

    protected long slackMillis() {
        return 0;
    }

    protected static StartRequest req(String principal, boolean force, int quota, String... scopes) {
        return new StartRequest("op-" + UUID.randomUUID(), principal, "map_inventory",
                List.of(scopes).stream().map(s -> new ScopeCooldown(s, COOLDOWN)).toList(), force, 1, 2, quota,
                3_600_000, LEASE);
    }

    protected static StartRequest req(String... scopes) {
        return req("alice", false, 0, scopes);
    }

    private void assertRetry(StartDecision d, long expected) {
        assertThat(d.retryAfterMillis()).as(d.toString()).isBetween(expected - slackMillis(), expected);
    }

    @Test
    void aScopeRunsOneOperationAtATime() {
        GuardStore s = store();
        assertThat(s.tryStart(req("aws/111111111111")).started()).isTrue();
        StartDecision d = s.tryStart(req("aws/111111111111", "aws/222222222222"));
        assertThat(d.started()).isFalse();
        assertThat(d.reason()).isEqualTo(RefusalReason.BUSY);
        assertThat(d.limit()).isEqualTo("live_max_concurrent");
        assertThat(d.blockingScopes()).containsExactly("aws/111111111111");
        assertThat(d.retryAfterMillis()).isEqualTo(COOLDOWN);
    }

    @Test
    void theServerRunsAtMostTheTotalCap() {
        GuardStore s = store();
        assertThat(s.tryStart(req("aws/1")).started()).isTrue();
        assertThat(s.tryStart(req("aws/2")).started()).isTrue();
        StartDecision d = s.tryStart(req("aws/3"));
        assertThat(d.reason()).isEqualTo(RefusalReason.BUSY);
        assertThat(d.limit()).isEqualTo("live_max_concurrent_total");
        assertThat(d.blockingScopes()).isEmpty();
    }

    @Test
    void aFinishedOperationFreesItsScopesAndCoolsThemDown() {
        GuardStore s = store();
        StartRequest first = req("aws/1");
        assertThat(s.tryStart(first).started()).isTrue();
        s.finish(first.operationId(), first.scopes());
        StartDecision d = s.tryStart(req("aws/1"));
        assertThat(d.reason()).isEqualTo(RefusalReason.COOLDOWN);
        assertThat(d.limit()).isEqualTo("live_cooldown_seconds");
        assertThat(d.blockingScopes()).containsExactly("aws/1");
        assertRetry(d, COOLDOWN);
        assertThat(s.tryStart(req("aws/2")).started()).as("another scope is not cooling").isTrue();
        advance(Duration.ofSeconds(60));
        assertRetry(s.tryStart(req("aws/1")), COOLDOWN - 60_000);
        advance(Duration.ofMillis(60_001));
        assertThat(s.tryStart(req("aws/1")).started()).isTrue();
    }

    @Test
    void forceSkipsTheCooldownButNotTheCaps() {
        GuardStore s = store();
        StartRequest first = req("aws/1");
        s.tryStart(first);
        s.finish(first.operationId(), first.scopes());
        assertThat(s.tryStart(req("bob", true, 0, "aws/1")).started()).isTrue();
        StartDecision d = s.tryStart(req("bob", true, 0, "aws/1"));
        assertThat(d.reason()).isEqualTo(RefusalReason.BUSY);
    }

    @Test
    void busyNamesTheReasonAndWaitsForEveryFailingCheck() {
        GuardStore s = store();
        StartRequest a = req("aws/1");
        s.tryStart(a);
        s.finish(a.operationId(), List.of(new ScopeCooldown("aws/1", 500_000)));
        assertThat(s.tryStart(req("aws/2")).started()).isTrue();
        StartDecision d = s.tryStart(req("aws/1", "aws/2"));
        assertThat(d.reason()).as("busy comes first").isEqualTo(RefusalReason.BUSY);
        assertThat(d.blockingScopes()).containsExactly("aws/2");
        assertRetry(d, 500_000);
    }

    @Test
    void theCallerQuotaCountsStartsInTheWindow() {
        GuardStore s = store();
        StartRequest a = req("carol", false, 2, "aws/1");
        assertThat(s.tryStart(a).started()).isTrue();
        s.finish(a.operationId(), List.of());
        advance(Duration.ofSeconds(100));
        StartRequest b = req("carol", false, 2, "aws/2");
        assertThat(s.tryStart(b).started()).isTrue();
        s.finish(b.operationId(), List.of());
        StartDecision d = s.tryStart(req("carol", false, 2, "aws/3"));
        assertThat(d.reason()).isEqualTo(RefusalReason.QUOTA);
        assertThat(d.limit()).isEqualTo("live_caller_max_operations");
        assertRetry(d, 3_600_000 - 100_000);
        assertThat(s.tryStart(req("dave", false, 2, "aws/3")).started()).as("the quota is per caller").isTrue();
        advance(Duration.ofMillis(3_500_001));
        StartRequest c = req("carol", false, 2, "aws/4");
        assertThat(s.tryStart(c).started()).as("the first start left the window").isTrue();
    }

    @Test
    void aRefusalChangesNothing() {
        GuardStore s = store();
        StartRequest a = req("erin", false, 1, "aws/1");
        s.tryStart(a);
        s.tryStart(req("frank", false, 1, "aws/1"));
        s.finish(a.operationId(), List.of());
        assertThat(s.tryStart(req("frank", false, 1, "aws/1")).started())
                .as("frank's refused start did not use his quota of one").isTrue();
    }

    @Test
    void aLapsedRegistrationFreesItsScopes() {
        GuardStore s = store();
        StartRequest a = new StartRequest("op-lapsed", "alice", "map_inventory", List.of(new ScopeCooldown("aws/1", COOLDOWN)),
                false, 1, 2, 0, 3_600_000, 10_000);
        assertThat(s.tryStart(a).started()).isTrue();
        assertThat(s.tryStart(req("aws/1")).started()).isFalse();
        advance(Duration.ofMillis(10_000 + slackMillis() + 1));
        assertThat(s.tryStart(req("aws/1")).started()).as("a replica that died does not hold a scope forever").isTrue();
        s.finish("op-lapsed", a.scopes());
        assertThat(s.snapshot("alice", 3_600_000).cooldownUntilMillis()).as("a lapsed operation still ended")
                .containsKey("aws/1");
    }

    @Test
    void aRenewedRegistrationOutlivesItsFirstLease() {
        GuardStore s = store();
        StartRequest a = new StartRequest("op-renewed", "alice", "map_inventory", List.of(new ScopeCooldown("aws/1", COOLDOWN)),
                false, 1, 2, 0, 3_600_000, 10_000);
        assertThat(s.tryStart(a).started()).isTrue();
        advance(Duration.ofMillis(8_000));
        assertThat(s.renew("op-renewed", 10_000)).isTrue();
        advance(Duration.ofMillis(8_000));
        assertThat(s.tryStart(req("aws/1")).started()).as("still held after its first lease").isFalse();
        advance(Duration.ofMillis(10_000 + slackMillis() + 1));
        assertThat(s.renew("op-renewed", 10_000)).as("lapsed: a heartbeat cannot revive it").isFalse();
        assertThat(s.tryStart(req("aws/1")).started()).isTrue();
        assertThat(s.renew("op-never-started", 10_000)).isFalse();
    }

    @Test
    void theSnapshotShowsOperationsCooldownsAndQuotaUse() {
        GuardStore s = store();
        StartRequest a = req("gina", false, 5, "aws/1", "aws/2");
        StartRequest b = req("gina", false, 5, "aws/3");
        s.tryStart(a);
        s.tryStart(b);
        s.finish(b.operationId(), b.scopes());
        GuardSnapshot snap = s.snapshot("gina", 3_600_000);
        assertThat(snap.inFlight()).singleElement().satisfies(f -> {
            assertThat(f.operationId()).isEqualTo(a.operationId());
            assertThat(f.scopes()).containsExactly("aws/1", "aws/2");
            assertThat(f.principal()).isEqualTo("gina");
            assertThat(f.tool()).isEqualTo("map_inventory");
            assertThat(f.deadlineMillis() - f.startedMillis()).isEqualTo(LEASE);
        });
        assertThat(snap.cooldownUntilMillis()).containsOnlyKeys("aws/3");
        assertThat(snap.cooldownUntilMillis().get("aws/3") - snap.nowMillis()).isBetween(COOLDOWN - slackMillis(), COOLDOWN);
        assertThat(snap.callerStarts()).isEqualTo(2);
        assertThat(s.snapshot("nobody", 3_600_000).callerStarts()).isZero();
    }

    @Test
    void finishIsIdempotentAndNeverShortensACooldown() {
        GuardStore s = store();
        StartRequest a = req("aws/1");
        s.tryStart(a);
        s.finish(a.operationId(), List.of(new ScopeCooldown("aws/1", 300_000)));
        s.finish(a.operationId(), List.of(new ScopeCooldown("aws/1", 10_000)));
        assertRetry(s.tryStart(req("aws/1")), 300_000);
        assertThat(s.snapshot("alice", 1000).inFlight()).isEmpty();
    }
}
