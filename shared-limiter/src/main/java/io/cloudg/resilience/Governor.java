package io.cloudg.resilience;

import io.cloudg.resilience.spi.Scope;
import io.cloudg.resilience.config.RateLimitConfig;
import io.cloudg.resilience.memory.InMemoryStateStore;
import io.cloudg.resilience.report.ThrottlingReport;
import io.cloudg.resilience.report.ThrottlingStats;
import io.cloudg.resilience.spi.GovernorListener;
import io.cloudg.resilience.spi.SlotLease;
import io.cloudg.resilience.spi.StateStore;
import io.cloudg.resilience.time.TimeSource;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;
import java.util.function.Supplier;

/**
 * The governor every cloud API call passes: token buckets per provider, account and leaf, AIMD on the
 * leaves, circuit breakers per leaf, bulkheads per provider x account, retries with decorrelated jitter
 * bounded by max_retries, a deadline and a per-provider retry budget, task ledgers and the throttling
 * report.
 *
 * <p>State lives in a {@link StateStore} (in memory by default); time comes from one {@link TimeSource}.
 * A governor is thread-safe and meant to be shared by every client of a run (the engine's
 * {@code io.cloudg.Governors} builds the one a command uses); tests build their own with a manual clock.
 *
 * <pre>{@code
 * Governor g = Governor.builder().config(config).build();
 * List<Vpc> vpcs = g.call(Scope.of("aws", account, region, "ec2", "DescribeVpcs"), () -> ec2.describeVpcs().vpcs());
 * }</pre>
 */
public final class Governor implements AutoCloseable {
    private final StateStore store;
    private final TimeSource time;
    private final Classifier classifier;
    private final DoubleSupplier random;
    private final GovernorListener listener;
    private final ThrottlingStats stats = new ThrottlingStats();
    private final ConcurrentHashMap<Scope, SlotGate> gates = new ConcurrentHashMap<>();
    private final CallCeiling ceiling;
    private volatile Plans plans;
    private final ConcurrentHashMap<Scope, ThrottleNotice> notices = new ConcurrentHashMap<>();

    private Governor(Builder b) {
        this.plans = new Plans(b.config);
        this.ceiling = new CallCeiling(b.config.maxCallsInFlight());
        this.time = b.time;
        this.store = b.store != null ? b.store : new InMemoryStateStore(b.time);
        this.classifier = b.classifier;
        this.random = b.random;
        this.listener = b.listener;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A governor with {@code config}, in-memory state and the system clock. */
    public static Governor create(RateLimitConfig config) {
        return builder().config(config).build();
    }

    /**
     * Replaces the configuration. Learned state (rates, breakers, budgets) is kept; new limits apply from
     * the next call.
     */
    public void reconfigure(RateLimitConfig newConfig) {
        this.plans = new Plans(Objects.requireNonNull(newConfig, "config"));
        ceiling.resize(newConfig.maxCallsInFlight());
    }

    public RateLimitConfig config() {
        return plans.config;
    }

    public StateStore store() {
        return store;
    }

    public TimeSource time() {
        return time;
    }

    public Classifier classifier() {
        return classifier;
    }

    /** The process-wide counters (every call, whatever its run). */
    public ThrottlingStats stats() {
        return stats;
    }

    double random() {
        return random.getAsDouble();
    }

    CallCeiling ceiling() {
        return ceiling;
    }

    /**
     * Calls in flight in this process: holding a place under {@code ratelimit.max_calls_in_flight} (from their
     * bulkhead slot to its release), every provider and account together ({@code cloudg_calls_in_flight}).
     */
    public int callsInFlight() {
        return ceiling.held();
    }

    /** Calls that hold their bulkhead slot and wait for a place under the ceiling. */
    public int callsWaitingForCeiling() {
        return ceiling.waiting();
    }

    /**
     * Whether this process can take on more calls at once: below {@code ratelimit.max_calls_in_flight} with
     * nobody waiting for a place. What a fleet worker asks before taking another task.
     */
    public boolean hasRoomForCalls() {
        return ceiling.hasRoom();
    }

    /** The plan of the leaf that paces calls of {@code scope}. */
    CallPlan plan(Scope scope) {
        Plans p = plans;
        Scope leaf = p.leafOf(scope);
        CallPlan plan = p.byLeaf.get(leaf); // computeIfAbsent locks a bin even when the plan is there
        return plan != null ? plan : p.byLeaf.computeIfAbsent(leaf, l -> newPlan(l, p.config));
    }

    private CallPlan newPlan(Scope leaf, RateLimitConfig config) {
        Scope account = leaf.accountScope();
        SlotGate gate = gates.get(account); // one account's leaves are planned on many threads at once
        if (gate == null) {
            gate = gates.computeIfAbsent(account, a -> new SlotGate(store, time));
        }
        return new CallPlan(leaf, config, stats, gate, notices.computeIfAbsent(leaf, l -> new ThrottleNotice()), listener);
    }

    /** The scope whose bucket and breaker pace calls of {@code scope}. */
    public Scope leafOf(Scope scope) {
        return plans.leafOf(scope);
    }

    /**
     * A configuration and the plans made from it, by leaf: one read gets both, and a new configuration starts
     * with none.
     */
    private static final class Plans {
        final RateLimitConfig config;
        final ConcurrentHashMap<Scope, CallPlan> byLeaf = new ConcurrentHashMap<>();

        Plans(RateLimitConfig config) {
            this.config = config;
        }

        Scope leafOf(Scope scope) {
            if (scope.service() == null) {
                throw new IllegalArgumentException("a governed call needs a scope with a service, but was " + scope);
            }
            return config.provider(scope.provider()).isPerOperation(scope.service(), scope.operation())
                    ? scope : scope.withoutOperation();
        }
    }

    /** Starts one governed call (the SDK integrations' entry point). Close it when done. */
    public GovernedCall open(Scope scope) {
        return open(scope, CallOptions.DEFAULT);
    }

    public GovernedCall open(Scope scope, CallOptions options) {
        return new GovernedCall(this, scope, plan(scope), options, time.nanoTime());
    }

    /**
     * Runs {@code op} through the governor: gate, send, classify, retry or give up. A fatal error or the
     * last error of a call that gave up is rethrown as it was; a refusal by an open breaker throws
     * {@link CircuitOpenException}. Losses are recorded in the thread's {@link TaskLedger}.
     */
    public <T> T call(Scope scope, Callable<T> op) throws Exception {
        return call(scope, CallOptions.DEFAULT, op);
    }

    public <T> T call(Scope scope, CallOptions options, Callable<T> op) throws Exception {
        try (GovernedCall c = open(scope, options)) {
            while (true) {
                c.beforeSend();
                T value;
                try {
                    value = op.call();
                } catch (Exception | Error e) {
                    AttemptDecision d = c.onFailure(e);
                    if (d.retry()) {
                        time.sleep(d.backoffNanos());
                        continue;
                    }
                    throw e;
                }
                c.onSuccess();
                return value;
            }
        }
    }

    /**
     * The asynchronous form of {@link #call(Scope, Callable)}: no thread is held while waiting for tokens,
     * a slot or a backoff. The returned future fails with the same exceptions {@code call} would throw.
     */
    public <T> CompletableFuture<T> callAsync(Scope scope, Supplier<? extends CompletionStage<T>> op) {
        return callAsync(scope, CallOptions.DEFAULT, op);
    }

    public <T> CompletableFuture<T> callAsync(Scope scope, CallOptions options, Supplier<? extends CompletionStage<T>> op) {
        GovernedCall c;
        try {
            c = open(scope, options.ledger() == null ? options.withLedger(TaskLedger.current()) : options);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        CompletableFuture<T> result = new CompletableFuture<>();
        attemptAsync(c, op, result);
        result.whenComplete((v, e) -> c.close());
        return result;
    }

    private <T> void attemptAsync(GovernedCall c, Supplier<? extends CompletionStage<T>> op, CompletableFuture<T> result) {
        c.beforeSendAsync()
                .thenCompose(v -> op.get())
                .whenComplete((value, failure) -> {
                    if (failure == null) {
                        c.onSuccess();
                        result.complete(value);
                        return;
                    }
                    Throwable e = unwrap(failure);
                    if (e instanceof CircuitOpenException || e instanceof DeadlineExceededException) {
                        result.completeExceptionally(e);
                        return;
                    }
                    AttemptDecision d = c.onFailure(e);
                    if (d.retry()) {
                        time.delay(d.backoffNanos()).whenComplete((x, y) -> attemptAsync(c, op, result));
                    } else {
                        result.completeExceptionally(e);
                    }
                });
    }

    private static Throwable unwrap(Throwable t) {
        Throwable e = t;
        while ((e instanceof CompletionException || e instanceof ExecutionException) && e.getCause() != null) {
            e = e.getCause();
        }
        return e;
    }

    /**
     * Takes a bulkhead slot in {@code scope}'s provider x account for a unit of work larger than one call
     * (a whole paged listing). Blocks until a slot is free. Calls made with {@link CallOptions#held} use it.
     */
    public SlotHold holdSlot(Scope scope) throws InterruptedException {
        CallPlan plan = plan(scope);
        SlotLease lease = null;
        if (plan.enabled) {
            try {
                lease = plan.gate.acquire(plan.slot).get();
            } catch (ExecutionException e) {
                throw new IllegalStateException("waiting for a bulkhead slot failed", e.getCause());
            }
        }
        SlotHold hold = new SlotHold(this, plan, lease, time.nanoTime());
        try {
            awaitPlace(ceiling);
        } catch (InterruptedException | RuntimeException e) {
            hold.close();
            throw e;
        }
        hold.placeTaken();
        return hold;
    }

    /** Waits for a place under the ceiling (parks the calling thread; a virtual thread frees its carrier). */
    static void awaitPlace(CallCeiling ceiling) throws InterruptedException {
        CompletableFuture<Void> f = ceiling.acquire();
        try {
            f.get();
        } catch (InterruptedException e) {
            if (!f.cancel(false)) {
                ceiling.release(); // served while being interrupted: give the place back
            }
            throw e;
        } catch (ExecutionException e) {
            throw new IllegalStateException("waiting for a place under max_calls_in_flight failed", e.getCause());
        }
    }

    /**
     * The bulkheads (provider x account scopes) this process's calls have used so far, for gauges of the
     * slots in use ({@code store().slotsInUse(scope)}).
     */
    public java.util.Set<Scope> bulkheads() {
        return java.util.Set.copyOf(gates.keySet());
    }

    /** Hears this governor's events ({@link GovernorListener#NONE} unless the builder was given one). */
    public GovernorListener listener() {
        return listener;
    }

    /** The retry budget of {@code provider}. */
    public RetryBudget budget(String provider) {
        plans.config.provider(provider); // validates the name
        return new RetryBudget(this, provider);
    }

    /** The process-wide throttling report: every call since the governor was made. */
    public ThrottlingReport report() {
        return report(stats);
    }

    /** The throttling report of a run: its counters, and the governor's buckets and breakers as of now. */
    public ThrottlingReport report(ThrottlingStats run) {
        return ThrottlingReport.build(run, store.troubled(), time.nanoTime()).withGovernor(store.status().orElse(null));
    }

    @Override
    public void close() {
        store.close();
    }

    public static final class Builder {
        private RateLimitConfig config = RateLimitConfig.defaults();
        private StateStore store;
        private TimeSource time = TimeSource.system();
        private Classifier classifier = Classifier.defaultClassifier();
        private DoubleSupplier random = () -> ThreadLocalRandom.current().nextDouble();
        private GovernorListener listener = GovernorListener.NONE;

        public Builder config(RateLimitConfig c) {
            this.config = Objects.requireNonNull(c, "config");
            return this;
        }

        /** The state store; by default an in-memory one on this builder's time source. */
        public Builder store(StateStore s) {
            this.store = s;
            return this;
        }

        public Builder time(TimeSource t) {
            this.time = Objects.requireNonNull(t, "time");
            return this;
        }

        public Builder classifier(Classifier c) {
            this.classifier = Objects.requireNonNull(c, "classifier");
            return this;
        }

        /** The uniform [0, 1) source for backoff jitter (tests pin it). */
        public Builder random(DoubleSupplier r) {
            this.random = Objects.requireNonNull(r, "random");
            return this;
        }

        /** Hears every call's events (metrics); default {@link GovernorListener#NONE}. */
        public Builder listener(GovernorListener l) {
            this.listener = Objects.requireNonNull(l, "listener");
            return this;
        }

        public Governor build() {
            return new Governor(this);
        }
    }
}
