package io.cloudg.metrics;

import io.cloudg.resilience.Governor;
import io.cloudg.resilience.spi.Scope;
import io.cloudg.resilience.core.BreakerState;
import io.cloudg.resilience.spi.BreakerView;
import io.cloudg.resilience.spi.CallResult;
import io.cloudg.resilience.spi.GovernorListener;
import io.cloudg.resilience.spi.LeafListener;
import io.cloudg.resilience.spi.LeafView;
import io.cloudg.resilience.spi.StoreSnapshot;
import io.cloudg.resilience.spi.StoreStatus;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * The governor's metrics. As its {@link GovernorListener} it counts, per provider, service and operation
 * (the operation only where the leaf is per operation; {@code account} and {@code region} too with
 * {@code metrics.per_account}):
 * <ul>
 *   <li>{@code cloudg_governor_calls_total{outcome}}: each attempt's answer (success, throttled,
 *       transient, fatal), each refused admission (rejected) and each call that gave up (gave_up) -- the
 *       throttling report's counters;</li>
 *   <li>{@code cloudg_governor_retries_total}, {@code cloudg_governor_breaker_trips_total};</li>
 *   <li>{@code cloudg_governor_token_wait_seconds}: a histogram of the waits for tokens (admissions that
 *       had to wait; provider and service only).</li>
 * </ul>
 * Once {@link #watch watching} a governor, gauges read from its state before each scrape (at most every
 * {@code metrics.state_refresh_seconds}): slowed leaves and the slowest one's rate and ceiling, breakers
 * by state (a row at 0 for each provider and state from the first scrape, so that a query or an alert
 * on {@code state="open"} has a series before any breaker opened), the retry budget left, bulkhead slots in use, and whether the shared store is degraded. With
 * the Redis store that state is the fleet's: every process reports the same values (aggregate with
 * {@code max}, not {@code sum}). Besides them, read live at each scrape and always this process's own:
 * {@code cloudg_calls_in_flight}, the calls holding a place under {@code ratelimit.max_calls_in_flight} (every
 * provider and account; sum it over a fleet), and {@code cloudg_calls_in_flight_limit}, that ceiling.
 *
 * <p>The hot path costs one {@link LongAdder} increment per attempt: the listener of a label set is made
 * once and kept in the governor's plan of each scope; function counters read the adders at scrape time.
 * (FunctionCounters keep a weak reference to their adder; the listener, held by the governor's plans and by
 * this binder, keeps them alive.)
 */
public final class GovernorMetrics implements GovernorListener {
    /** Token waits: from a millisecond (pacing) to a minute (a paused leaf). */
    static final Duration[] WAIT_BUCKETS = {Duration.ofMillis(1), Duration.ofMillis(5), Duration.ofMillis(25),
            Duration.ofMillis(100), Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1),
            Duration.ofMillis(2500), Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(30),
            Duration.ofSeconds(60)};

    private final CloudgMetrics metrics;
    private final MeterRegistry registry;
    private final boolean perAccount;
    private final Map<List<String>, Meters> byLabels = new ConcurrentHashMap<>();
    private final Map<List<String>, Timer> waits = new ConcurrentHashMap<>();
    private final Set<String> providers = ConcurrentHashMap.newKeySet();

    public GovernorMetrics(CloudgMetrics metrics) {
        this.metrics = metrics;
        this.registry = metrics.registry();
        this.perAccount = metrics.settings().perAccount();
    }

    /** {@link GovernorListener#NONE} when {@code metrics} records nothing (no cost at all), else a new binder. */
    public static GovernorListener listenerFor(CloudgMetrics metrics) {
        return metrics.enabled() ? new GovernorMetrics(metrics) : GovernorListener.NONE;
    }

    /** Adds the state gauges of {@code governor} (built with this listener, or any other). */
    public static void watch(CloudgMetrics metrics, Governor governor) {
        if (!metrics.enabled()) {
            return;
        }
        GovernorListener l = governor.listener();
        GovernorMetrics gm = l instanceof GovernorMetrics m ? m : new GovernorMetrics(metrics);
        gm.watchState(governor);
    }

    @Override
    public LeafListener leaf(Scope leaf) {
        providers.add(leaf.provider());
        List<String> key = perAccount
                ? List.of(leaf.provider(), leaf.service(), op(leaf), nz(leaf.account()), nz(leaf.region()))
                : List.of(leaf.provider(), leaf.service(), op(leaf));
        Meters m = byLabels.get(key);
        return m != null ? m : byLabels.computeIfAbsent(key, k -> new Meters(leaf));
    }

    private Tags labels(Scope leaf) {
        Tags t = present(Tags.of("provider", leaf.provider(), "service", leaf.service()), "operation", leaf.operation());
        return perAccount ? present(present(t, "account", leaf.account()), "region", leaf.region()) : t;
    }

    /**
     * {@code tags} with {@code key=value} when the value is not empty; without it otherwise. Prometheus reads an
     * empty label as an absent one, so an exposition that writes {@code operation=""} only adds noise: a leaf per
     * service has no {@code operation} label at all (families may mix label sets; PromQL's {@code by} treats the
     * missing label as empty).
     */
    static Tags present(Tags tags, String key, String value) {
        return value == null || value.isEmpty() ? tags : tags.and(key, value);
    }

    private static String op(Scope leaf) {
        return leaf.operation() == null ? "" : leaf.operation();
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }

    /**
     * The meters of one label set. The hot path increments plain {@link LongAdder}s that function counters
     * read at scrape time: cheaper per event than a registry counter's own adder and its exemplar check.
     */
    private final class Meters implements LeafListener {
        final LongAdder[] results = new LongAdder[CallResult.values().length];
        final LongAdder retries = new LongAdder();
        final LongAdder trips = new LongAdder();
        final Timer wait;

        Meters(Scope leaf) {
            Tags t = labels(leaf);
            for (CallResult r : CallResult.values()) {
                LongAdder a = new LongAdder();
                results[r.ordinal()] = a;
                FunctionCounter.builder("cloudg.governor.calls", a, LongAdder::sum).tags(t).tag("outcome", r.label())
                        .description("Governed attempts by answer (success, throttled, transient, fatal), refused "
                                + "admissions (rejected) and calls that gave up (gave_up)").register(registry);
            }
            FunctionCounter.builder("cloudg.governor.retries", retries, LongAdder::sum).tags(t)
                    .description("Retries the governor granted").register(registry);
            FunctionCounter.builder("cloudg.governor.breaker.trips", trips, LongAdder::sum).tags(t)
                    .description("Times a leaf's circuit breaker opened").register(registry);
            Tags byService = Tags.of("provider", leaf.provider(), "service", leaf.service());
            Tags w = perAccount ? present(present(byService, "account", leaf.account()), "region", leaf.region()) : byService;
            List<String> key = perAccount ? List.of(leaf.provider(), leaf.service(), nz(leaf.account()), nz(leaf.region()))
                    : List.of(leaf.provider(), leaf.service());
            wait = waits.computeIfAbsent(key, k -> Timer.builder("cloudg.governor.token.wait").tags(w)
                    .description("How long admissions waited for tokens (admissions without a wait are not counted)")
                    .serviceLevelObjectives(WAIT_BUCKETS).register(registry));
        }

        @Override
        public void result(CallResult r) {
            results[r.ordinal()].increment();
        }

        @Override
        public void retried() {
            retries.increment();
        }

        @Override
        public void waited(long nanos) {
            wait.record(nanos, TimeUnit.NANOSECONDS);
        }

        @Override
        public void breakerTripped() {
            trips.increment();
        }
    }

    // ------------------------------------------------------------------ state gauges

    /** Adds the gauges read from {@code governor}'s state, refreshed before each scrape. */
    private void watchState(Governor governor) {
        StateGauges g = new StateGauges(governor);
        metrics.onRefresh(g::refresh);
    }

    /** Gauges over the governor's state; a refresh reads the store at most every state_refresh_seconds. */
    private final class StateGauges {
        final Governor governor;
        final long refreshNanos;
        final MultiGauge slowedLeaves;
        final MultiGauge slowestRate;
        final MultiGauge slowestCeiling;
        final MultiGauge breakers;
        final MultiGauge budgetLeft;
        final MultiGauge budgetSize;
        final MultiGauge slotsInUse;
        final MultiGauge slotsLimit;
        long refreshedAt;
        boolean refreshed;

        StateGauges(Governor governor) {
            this.governor = governor;
            this.refreshNanos = metrics.settings().stateRefresh().toNanos();
            slowedLeaves = multi("cloudg.governor.slowed.leaves",
                    "Leaves running below their ceiling after throttles");
            slowestRate = multi("cloudg.governor.slowed.leaf.rate.per.second",
                    "The current rate of the slowest slowed leaf (requests per second)");
            slowestCeiling = multi("cloudg.governor.slowed.leaf.ceiling.per.second",
                    "The ceiling of the slowest slowed leaf (requests per second)");
            breakers = multi("cloudg.governor.breakers",
                    "Circuit breakers that tripped, by state (0 for each provider and state until one does)");
            budgetLeft = multi("cloudg.governor.retry.budget.remaining",
                    "Tokens left in the provider's retry budget");
            budgetSize = multi("cloudg.governor.retry.budget.size",
                    "The size of the provider's retry budget (retry_budget)");
            slotsInUse = multi("cloudg.governor.bulkhead.slots.in.use",
                    "Bulkhead slots held in the provider x account bulkheads this process uses");
            slotsLimit = multi("cloudg.governor.bulkhead.slots.limit",
                    "max_concurrency summed over those bulkheads");
            // this process's own, read live at each scrape (a counter in memory, whatever the store)
            Gauge.builder("cloudg.calls.in.flight", governor, Governor::callsInFlight).strongReference(true)
                    .description("Calls this process has in flight (holding a place under ratelimit.max_calls_in_flight),"
                            + " every provider and account together").register(registry);
            Gauge.builder("cloudg.calls.in.flight.limit", governor, g -> g.config().maxCallsInFlight())
                    .strongReference(true).description("ratelimit.max_calls_in_flight: the most calls this process has "
                            + "in flight at once").register(registry);
            // status() never blocks: read at each scrape, not cached with the snapshot
            Gauge.builder("cloudg.governor.degraded", this, s -> s.status().map(x -> x.degradedNow() ? 1 : 0).orElse(0))
                    .strongReference(true)
                    .description("1 while the shared (Redis) governor is out of reach and calls are paced locally")
                    .register(registry);
            FunctionCounter.builder("cloudg.governor.degraded.seconds", this,
                            s -> s.status().map(x -> x.degradedNanos() / 1e9).orElse(0.0))
                    .description("Time spent with the shared governor out of reach").register(registry);
            FunctionCounter.builder("cloudg.governor.degraded.episodes", this,
                            s -> s.status().map(x -> (double) x.episodes()).orElse(0.0))
                    .description("Times the shared governor was lost").register(registry);
        }

        java.util.Optional<StoreStatus> status() {
            return governor.store().status();
        }

        synchronized void refresh() {
            long now = metrics.time().nanoTime();
            if (refreshed && now - refreshedAt < refreshNanos) {
                return;
            }
            refreshed = true;
            refreshedAt = now;
            leavesAndBreakers(governor.store().troubled());
            budgetsAndBulkheads();
        }

        private void leavesAndBreakers(StoreSnapshot snap) {
            Map<Tags, Integer> slowed = new HashMap<>();
            Map<Tags, LeafView> slowest = new HashMap<>();
            for (LeafView l : snap.leaves()) {
                if (!l.slowed()) {
                    continue;
                }
                Tags t = labels(l.leaf());
                slowed.merge(t, 1, Integer::sum);
                slowest.merge(t, l, (a, b) -> b.rateRps() < a.rateRps() ? b : a);
            }
            slowedLeaves.register(rows(slowed), true);
            Map<Tags, Number> rate = new HashMap<>();
            Map<Tags, Number> ceiling = new HashMap<>();
            slowest.forEach((t, l) -> {
                rate.put(t, l.rateRps());
                ceiling.put(t, l.ceilingRps());
            });
            slowestRate.register(rows(rate), true);
            slowestCeiling.register(rows(ceiling), true);
            Map<Tags, Integer> byState = new HashMap<>();
            for (String p : enabledProviders()) {
                for (BreakerState.Phase phase : BreakerState.Phase.values()) {
                    byState.put(Tags.of("provider", p, "state", phase.name().toLowerCase(Locale.ROOT)), 0);
                }
            }
            for (BreakerView b : snap.breakers()) {
                if (!b.troubled()) {
                    continue;
                }
                byState.merge(labels(b.leaf()).and("state", b.phase().name().toLowerCase(Locale.ROOT)), 1, Integer::sum);
            }
            breakers.register(rows(byState), true);
        }

        /** The providers this governor may call: each has a row per breaker state from the first scrape. */
        private List<String> enabledProviders() {
            List<String> out = new ArrayList<>();
            for (String p : governor.config().providers().keySet()) {
                if (governor.config().enabled(p)) {
                    out.add(p);
                }
            }
            return out;
        }

        private void budgetsAndBulkheads() {
            Map<Tags, Number> left = new HashMap<>();
            Map<Tags, Number> size = new HashMap<>();
            java.util.Set<String> known = new java.util.TreeSet<>(providers);
            governor.bulkheads().forEach(b -> known.add(b.provider())); // a governor built with another listener
            for (String p : known) {
                Tags t = Tags.of("provider", p);
                int s = governor.config().provider(p).retryBudget();
                size.put(t, s);
                left.put(t, governor.store().retryBudgetRemaining(p, s));
            }
            budgetLeft.register(rows(left), true);
            budgetSize.register(rows(size), true);
            Map<Tags, Integer> inUse = new HashMap<>();
            Map<Tags, Integer> limit = new HashMap<>();
            for (Scope bulkhead : governor.bulkheads()) {
                Tags t = perAccount ? present(Tags.of("provider", bulkhead.provider()), "account", bulkhead.account())
                        : Tags.of("provider", bulkhead.provider());
                inUse.merge(t, governor.store().slotsInUse(bulkhead), Integer::sum);
                limit.merge(t, governor.config().provider(bulkhead.provider()).maxConcurrency(), Integer::sum);
            }
            slotsInUse.register(rows(inUse), true);
            slotsLimit.register(rows(limit), true);
        }
    }

    private MultiGauge multi(String name, String description) {
        return MultiGauge.builder(name).description(description).register(registry);
    }

    private static List<MultiGauge.Row<?>> rows(Map<Tags, ? extends Number> values) {
        List<MultiGauge.Row<?>> out = new ArrayList<>(values.size());
        values.forEach((t, v) -> out.add(MultiGauge.Row.of(t, v)));
        return out;
    }
}
