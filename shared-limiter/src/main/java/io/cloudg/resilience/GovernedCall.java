package io.cloudg.resilience;

import io.cloudg.resilience.spi.Scope;
import io.cloudg.resilience.core.Backoff;
import io.cloudg.resilience.core.CallVerdict;
import io.cloudg.resilience.core.QuotaWindow;
import io.cloudg.resilience.core.RetryBudgets;
import io.cloudg.resilience.report.ScopeCounters;
import io.cloudg.resilience.report.ThrottlingStats;
import io.cloudg.resilience.spi.Admission;
import io.cloudg.resilience.spi.AttemptOutcome;
import io.cloudg.resilience.spi.CallResult;
import io.cloudg.resilience.spi.ErrorClass;
import io.cloudg.resilience.spi.OutcomeRequest;
import io.cloudg.resilience.spi.SlotLease;
import io.cloudg.resilience.spi.StateStore;
import io.cloudg.resilience.time.TimeSource;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * One logical call through the governor, attempt by attempt. This is the building block the SDK
 * integrations use (they let the SDK run the retry loop and ask this object at each step); the governor's
 * own {@code call}/{@code callAsync} are loops over it.
 *
 * <p>Per attempt: {@link #admit()} (breaker, tokens at every level; returns the wait) or the blocking
 * {@link #beforeSend()} / non-blocking {@link #beforeSendAsync()} (admit, wait, take a bulkhead slot, then a place
 * under the process's ceiling on calls in flight, {@code ratelimit.max_calls_in_flight}, given back with the slot);
 * then {@link #onSuccess()} or {@link #onFailure(Throwable)}, which returns the decision. {@link #close()}
 * releases whatever is still held. Not thread-safe: one call is driven by one caller at a time.
 */
public final class GovernedCall implements AutoCloseable {
    private final Governor governor;
    private final Scope scope;
    private final CallPlan plan;
    private final StateStore store;
    private final TimeSource time;
    private final TaskLedger ledger;
    private final ScopeCounters runCounters;
    private final CallOptions options;
    /** The plan of the further quota this call is charged to ({@link CallOptions#charged()}), or null. */
    private final CallPlan quota;
    private final long startedAt;
    private int attempts;
    private int retries;
    private long previousBackoff;
    private long probeGeneration;
    private SlotLease lease;
    private long leaseRenewedAt;
    /** Whether this call holds a place under the process's ceiling on calls in flight ({@link CallCeiling}). */
    private boolean place;
    private boolean ended;
    /** The class of the last failed attempt, for a give-up the SDK's own deadline decides. */
    private ErrorClass lastClass;
    /** What the last failed attempt's answer said about a quota window. */
    private QuotaWindow window = QuotaWindow.NONE;
    /** Whether the last admission asked this call to wait, and when it was made. */
    private boolean waiting;
    private long reservedAt;

    GovernedCall(Governor governor, Scope scope, CallPlan plan, CallOptions options, long now) {
        this.governor = governor;
        this.scope = scope;
        this.plan = plan;
        this.store = governor.store();
        this.time = governor.time();
        this.options = options;
        this.ledger = options.ledger() != null ? options.ledger() : TaskLedger.current();
        ThrottlingStats run = ledger == null ? null : ledger.run();
        this.runCounters = run == null ? null : plan.runCounters(run);
        this.quota = options.charged() == null || !plan.enabled ? null : governor.plan(options.charged().scope());
        this.startedAt = now;
        count(ScopeCounters::call);
    }

    public Scope scope() {
        return scope;
    }

    /** The bucket/breaker scope this call is paced by. */
    public Scope leaf() {
        return plan.leaf;
    }

    /** The name a give-up message uses: the operation, else the service. */
    private String operationName() {
        return scope.operation() != null ? scope.operation() : scope.service();
    }

    /** Attempts admitted so far. */
    public int attempts() {
        return attempts;
    }

    /** Retries granted so far. */
    public int retries() {
        return retries;
    }

    /** Whether the governor acts on this call at all ({@code ratelimit[.provider].enabled}). */
    public boolean governed() {
        return plan.enabled;
    }

    /** Whether the next attempt still needs a bulkhead slot (after {@link #admit()}). */
    public boolean needsSlot() {
        return plan.enabled && lease == null && options.slotMode() != CallOptions.SlotMode.HELD;
    }

    /**
     * Whether the next attempt still needs a place under the process's ceiling on calls in flight: every call
     * does, governed or not, but one made under a {@link SlotHold} (which holds the place for all its calls).
     */
    public boolean needsPlace() {
        return !place && options.slotMode() != CallOptions.SlotMode.HELD;
    }

    /** Whether this call holds its place under the process's ceiling on calls in flight. */
    public boolean holdsPlace() {
        return place;
    }

    /**
     * The gate before an attempt, without waiting: checks the deadline and the breaker, takes tokens at
     * every level, and takes a bulkhead slot too when no wait is needed and nobody in this process is
     * queued for one.
     *
     * @return nanoseconds to wait before sending (the caller waits, then takes a slot if
     *         {@link #needsSlot()})
     * @throws CircuitOpenException the breaker refused; nothing was taken and the ledger records a skip
     * @throws DeadlineExceededException the call's deadline is spent; never for a call opened with
     *         {@link CallOptions#sdkLoop()}, whose SDK's own limits end its loop
     */
    public long admit() {
        attempts++;
        if (!plan.enabled) {
            return 0;
        }
        long now = time.nanoTime();
        if (!options.sdkLoop() && now - startedAt >= plan.limits.deadlineNanos()) {
            String reason = operationName() + " (deadline exceeded)";
            end(AttemptOutcome.NONE, -1, CallVerdict.NEUTRAL);
            plan.listener.result(CallResult.GAVE_UP);
            throw new DeadlineExceededException("deadline of " + plan.limits.deadlineSeconds() + "s spent before " + reason);
        }
        if (options.slotMode() == CallOptions.SlotMode.HELD) {
            options.hold().touch(now);
        } else if (lease != null && now - leaseRenewedAt > plan.slot.leaseNanos() / 2) {
            leaseRenewedAt = now;
            if (!store.renewSlot(lease, plan.slot.leaseNanos())) {
                lease = null; // expired while we backed off: take a new one
            }
        }
        boolean wantSlot = needsSlot() && plan.gate.idle();
        return admitted(store.admit(wantSlot ? plan.admitWithSlot : plan.admitNoSlot), now);
    }

    /**
     * What an admission means for this call: a refusal throws, a probe or a lease is kept, a wait counted.
     * An admitted call charged to a further quota takes a token of that quota's leaf too, and waits for the
     * slower of the two.
     */
    private long admitted(Admission admission, long now) {
        Admission a = admission;
        if (quota != null && !a.rejected()) {
            long w = store.admit(quota.admitQuota).waitNanos();
            if (w > a.waitNanos()) {
                a = new Admission(a.breaker(), w, a.lease());
            }
        }
        if (a.rejected()) {
            CircuitOpenException e = new CircuitOpenException(plan.leaf, a.breaker().retryInNanos());
            count(ScopeCounters::rejected);
            plan.listener.result(CallResult.REJECTED);
            if (ledger != null) {
                ledger.recordCircuitSkipped(e.getMessage());
            }
            governor.stats().skipped(plan.serviceScope, e.getMessage());
            if (runCounters != null) {
                ledger.run().skipped(plan.serviceScope, e.getMessage());
            }
            ended = true;
            releaseLease();
            throw e;
        }
        if (a.breaker().probe()) {
            probeGeneration = a.breaker().probeGeneration();
        }
        if (a.lease() != null) {
            lease = a.lease();
            leaseRenewedAt = now;
        }
        long wait = a.waitNanos();
        waiting = wait > 0;
        reservedAt = now;
        if (wait > 0) {
            plan.counters.waited(wait);
            if (runCounters != null) {
                runCounters.waited(wait);
            }
            plan.listener.waited(wait);
        }
        return wait;
    }

    /**
     * After waiting what an admission asked for: if this process saw a throttled answer on this call's
     * leaf since the reservation, that reservation was made at a rate that no longer holds (the leaf has
     * halved since), and sending now would run into the same empty bucket. Reserves again, behind the
     * callers already queued and at the halved rate, and returns the further wait; otherwise 0. The first
     * reservation stays taken, which errs on the slow side. A probe keeps its place.
     *
     * @throws CircuitOpenException the breaker opened meanwhile; nothing was taken and the ledger records a skip
     */
    public long recheckAfterWait() {
        if (!plan.enabled || !waiting || probeGeneration != 0
                || !(plan.throttles.after(reservedAt) || (quota != null && quota.throttles.after(reservedAt)))) {
            waiting = false;
            return 0;
        }
        return admitted(store.admit(plan.admitNoSlot), time.nanoTime());
    }

    /**
     * Waits {@code wait} (what {@link #admit()} returned), re-reserving as {@link #recheckAfterWait()}
     * says, for as long as it says. Blocks.
     */
    public void waitForTokens(long wait) throws InterruptedException {
        long w = wait;
        while (w > 0) {
            time.sleep(w);
            w = recheckAfterWait();
        }
    }

    /** Like {@link #waitForTokens(long)} without holding a thread. */
    public CompletableFuture<Void> waitForTokensAsync(long wait) {
        if (wait <= 0) {
            return CompletableFuture.completedFuture(null);
        }
        return time.delay(wait).thenCompose(v -> {
            long w;
            try {
                w = recheckAfterWait();
            } catch (RuntimeException e) {
                return CompletableFuture.failedFuture(e);
            }
            return waitForTokensAsync(w);
        });
    }

    /**
     * Admits, waits for the tokens, takes a bulkhead slot and a place under the process's ceiling: everything
     * before sending. Blocks (parks: on a virtual thread, its carrier is free meanwhile).
     */
    public void beforeSend() throws InterruptedException {
        waitForTokens(admit());
        try {
            awaitSlot();
        } catch (InterruptedException e) {
            close();
            throw e;
        }
    }

    /** Like {@link #beforeSend()} without holding a thread while waiting. */
    public CompletableFuture<Void> beforeSendAsync() {
        long wait;
        try {
            wait = admit();
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        return waitForTokensAsync(wait).thenCompose(v -> {
            if (!needsSlot()) {
                return CompletableFuture.completedFuture(null);
            }
            return plan.gate.acquire(plan.slot).thenAccept(this::takeLease);
        }).thenCompose(v -> {
            if (!needsPlace()) {
                return CompletableFuture.completedFuture(null);
            }
            return governor.ceiling().acquire().thenRun(() -> place = true);
        });
    }

    /**
     * Waits for a bulkhead slot if this call still needs one, then for a place under the process's ceiling on
     * calls in flight if it needs one; a no-op otherwise. Blocks (parks).
     */
    public void awaitSlot() throws InterruptedException {
        if (needsSlot()) {
            try {
                takeLease(plan.gate.acquire(plan.slot).get());
            } catch (ExecutionException e) {
                throw new IllegalStateException("waiting for a bulkhead slot failed", e.getCause());
            }
        }
        if (needsPlace()) {
            Governor.awaitPlace(governor.ceiling());
            place = true;
        }
    }

    private void takeLease(SlotLease l) {
        lease = l;
        leaseRenewedAt = time.nanoTime();
    }

    /** The attempt succeeded: the leaf may recover, the breaker closes, the budget gets its refund. */
    public AttemptDecision onSuccess() {
        plan.listener.result(CallResult.SUCCESS);
        if (plan.enabled) {
            end(AttemptOutcome.SUCCESS, -1, CallVerdict.SUCCESS);
            store.refundRetry(plan.provider, plan.limits.retryBudget());
        } else {
            ended = true;
        }
        return AttemptDecision.DONE;
    }

    /**
     * The attempt failed with {@code error}. Classifies it, counts it, feeds AIMD, and decides: FAIL for
     * fatal errors, RETRY while max_retries, the deadline and the retry budget allow it, GIVE_UP otherwise
     * (recorded in the ledger).
     */
    public AttemptDecision onFailure(Throwable error) {
        Classification c = governor.classifier().explain(error, time.epochMillis());
        return onFailure(error, c);
    }

    /** As {@link #onFailure(Throwable)} with the classification already made. */
    public AttemptDecision onFailure(Throwable error, Classification c) {
        return decide(error, c, false, true);
    }

    /**
     * For integrations whose SDK runs the retry loop itself (AWS): the SDK's own limits (its maximum
     * attempts, its timeouts) replace {@code max_retries} and {@code deadline_seconds}, so the governor only
     * adds what the SDK lacks: the breaker, AIMD, the counters and the retry budget, which can still end the
     * loop. {@code sdkWillRetry} says whether the SDK would retry this failure; if not, the call gives up
     * (and is recorded as lost) unless the error is fatal. Such a call MUST be opened with
     * {@link CallOptions#forSdkLoop()}, so that {@link #admit()} before each of the SDK's attempts does not
     * end the loop at {@code deadline_seconds} either.
     */
    public AttemptDecision onSdkFailure(Throwable error, Classification c, boolean sdkWillRetry) {
        return decide(error, c, true, sdkWillRetry);
    }

    /**
     * For integrations whose SDK ends a call at its own deadline (a total-call timeout) while its attempts
     * were failing or waiting: the call gave up, as it would at {@code deadline_seconds}, and is recorded so
     * (the ledger says {@code throttled:} or {@code transient:} after the last attempt's kind). Does nothing
     * for a call that already ended.
     */
    public void onDeadline(Throwable error) {
        if (ended || !plan.enabled) {
            return;
        }
        ErrorClass kind = lastClass == ErrorClass.THROTTLED ? ErrorClass.THROTTLED : ErrorClass.TRANSIENT;
        giveUp(error, new Classification(kind, null, 0, RetryAfter.NONE, String.valueOf(error.getMessage())),
                AttemptOutcome.of(kind), -1, CallVerdict.NEUTRAL, "deadline exceeded");
    }

    private AttemptDecision decide(Throwable error, Classification c, boolean sdkLoop, boolean sdkWillRetry) {
        long now = time.nanoTime();
        lastClass = c.errorClass();
        window = c.window();
        if (c.errorClass() == ErrorClass.THROTTLED) {
            count(ScopeCounters::throttled);
            plan.listener.result(CallResult.THROTTLED);
            if (plan.enabled) {
                (quotasThrottle() ? quota : plan).throttles.mark(now);
            }
        } else if (c.errorClass() == ErrorClass.TRANSIENT) {
            count(ScopeCounters::transientError);
            plan.listener.result(CallResult.TRANSIENT);
        } else {
            plan.listener.result(CallResult.FATAL);
        }
        if (!plan.enabled) {
            ended = true;
            return new AttemptDecision(AttemptDecision.Kind.FAIL, 0, error, null);
        }
        AttemptOutcome outcome = AttemptOutcome.of(c.errorClass());
        long retryAfter = c.hasRetryAfter() ? c.retryAfterNanos() : -1;
        if (c.errorClass() == ErrorClass.FATAL) {
            end(outcome, retryAfter, CallVerdict.REACHABLE);
            return new AttemptDecision(AttemptDecision.Kind.FAIL, 0, error, null);
        }
        String why = null;
        CallVerdict verdict = CallVerdict.FAILURE;
        long backoff = 0;
        if (sdkLoop ? !sdkWillRetry : retries >= plan.limits.maxRetries()) {
            why = "retries exhausted";
        } else {
            // in an SDK's own loop its backoff stands: max_backoff_seconds and deadline_seconds are the
            // governor's loop's (Retry-After still holds: it pauses the leaf, so it is in the token wait)
            backoff = sdkLoop ? 0 : Backoff.next(previousBackoff, plan.limits.maxBackoffNanos(), retryAfter, governor.random());
            if (!sdkLoop && now + backoff - startedAt >= plan.limits.deadlineNanos()) {
                why = "deadline exceeded";
            } else if (RetryBudgets.costs(retries + 1) && !store.tryTakeRetry(plan.provider, plan.limits.retryBudget())) {
                why = "retry budget exhausted";
                verdict = CallVerdict.NEUTRAL;
            }
        }
        if (why == null) {
            boolean releaseSlot = options.slotMode() == CallOptions.SlotMode.PER_ATTEMPT;
            record(outcome, retryAfter, CallVerdict.NONE, releaseSlot);
            retries++;
            previousBackoff = backoff;
            count(ScopeCounters::retry);
            plan.listener.retried();
            return new AttemptDecision(AttemptDecision.Kind.RETRY, backoff, error, null);
        }
        return giveUp(error, c, outcome, retryAfter, verdict, why);
    }

    private AttemptDecision giveUp(Throwable error, Classification c, AttemptOutcome outcome, long retryAfter,
                                   CallVerdict verdict, String why) {
        end(outcome, retryAfter, verdict);
        String reason = Reasons.gaveUp(c.errorClass(), operationName(), why, c.summary());
        count(ScopeCounters::gaveUp);
        plan.listener.result(CallResult.GAVE_UP);
        if (ledger != null) {
            ledger.recordGaveUp(reason, c.errorClass() == ErrorClass.THROTTLED);
        }
        governor.stats().skipped(plan.serviceScope, reason);
        if (runCounters != null) {
            ledger.run().skipped(plan.serviceScope, reason);
        }
        return new AttemptDecision(AttemptDecision.Kind.GIVE_UP, 0, error, reason);
    }

    private void end(AttemptOutcome outcome, long retryAfter, CallVerdict verdict) {
        ended = true;
        record(outcome, retryAfter, verdict, true);
    }

    /** Whether the last throttle was the further quota's: its window names what that quota is counted per. */
    private boolean quotasThrottle() {
        return quota != null && options.charged().per().equals(window.per());
    }

    private void record(AttemptOutcome outcome, long retryAfter, CallVerdict verdict, boolean releaseSlot) {
        SlotLease release = releaseSlot ? lease : null;
        if (release != null) {
            lease = null;
        }
        if (releaseSlot) {
            releasePlace();
        }
        QuotaWindow w = outcome == AttemptOutcome.THROTTLED ? window : QuotaWindow.NONE;
        AttemptOutcome own = outcome;
        if (quota != null && (outcome == AttemptOutcome.SUCCESS || outcome == AttemptOutcome.THROTTLED)) {
            boolean theirs = outcome == AttemptOutcome.THROTTLED && quotasThrottle();
            if (outcome == AttemptOutcome.SUCCESS || theirs) {
                store.recordAsync(new OutcomeRequest(quota.leaf, quota.leafLimit, outcome, retryAfter, null,
                        CallVerdict.NONE, 0, null, w));
            }
            if (theirs) {
                own = AttemptOutcome.NONE; // the call's own leaf did not refuse it: its rate stays
                w = QuotaWindow.NONE;
            }
        }
        OutcomeRequest request = new OutcomeRequest(plan.leaf, plan.leafLimit, own, own == AttemptOutcome.THROTTLED
                ? retryAfter : -1, plan.breaker, verdict, verdict == CallVerdict.NONE ? 0 : probeGeneration, release, w);
        boolean tripped = false;
        if (verdict == CallVerdict.FAILURE) {
            tripped = store.record(request).tripped(); // only a failure can trip the breaker
        } else {
            store.recordAsync(request); // applied before anything this process asks the store next
        }
        if (release != null) {
            plan.gate.released();
        }
        if (tripped) {
            count(ScopeCounters::breakerTrip);
            plan.listener.breakerTripped();
        }
    }

    private void releaseLease() {
        SlotLease l = lease;
        if (l != null) {
            lease = null;
            store.releaseSlot(l);
            plan.gate.released();
        }
        releasePlace();
    }

    private void releasePlace() {
        if (place) {
            place = false;
            governor.ceiling().release();
        }
    }

    private void count(java.util.function.Consumer<ScopeCounters> event) {
        event.accept(plan.counters);
        if (runCounters != null) {
            event.accept(runCounters);
        }
    }

    /**
     * Ends the call if no outcome ended it (cancelled, interrupted, abandoned): a running probe gives its
     * lease back, nothing counts against the breaker, and the slot is released.
     */
    @Override
    public void close() {
        if (!ended) {
            ended = true;
            if (plan.enabled) {
                record(AttemptOutcome.NONE, -1, CallVerdict.NEUTRAL, true);
                return;
            }
        }
        releaseLease();
    }
}
