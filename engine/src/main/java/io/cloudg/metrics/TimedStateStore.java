package io.cloudg.metrics;

import io.cloudg.resilience.spi.Scope;
import io.cloudg.resilience.spi.Admission;
import io.cloudg.resilience.spi.AdmitRequest;
import io.cloudg.resilience.spi.OutcomeRequest;
import io.cloudg.resilience.spi.OutcomeResult;
import io.cloudg.resilience.spi.SlotLease;
import io.cloudg.resilience.spi.SlotRequest;
import io.cloudg.resilience.spi.StateStore;
import io.cloudg.resilience.spi.StoreSnapshot;
import io.cloudg.resilience.spi.StoreStatus;
import io.cloudg.resilience.time.TimeSource;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The latency of the governor's round trips to its shared store, at the edge of the {@link StateStore}
 * SPI: {@code cloudg_redis_command_seconds{store="governor", command, outcome}}, one command per store
 * operation (each is one script or one batch on Redis). It wraps the store the governor is built with, so
 * the Redis transport underneath stays as it is; while the store is degraded the time is that of the
 * local fallback. {@code recordAsync} is timed until the outcome is applied.
 */
public final class TimedStateStore implements StateStore {
    /** Redis round trips: from a tenth of a millisecond (loopback) to a second (a failover). */
    static final Duration[] BUCKETS = {Duration.ofNanos(100_000), Duration.ofNanos(250_000), Duration.ofNanos(500_000),
            Duration.ofMillis(1), Duration.ofMillis(2), Duration.ofMillis(5), Duration.ofMillis(10),
            Duration.ofMillis(25), Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250),
            Duration.ofMillis(1000)};

    /** The store operations timed, as the {@code command} label names them. */
    enum Command {
        ADMIT, RECORD, RECORD_ASYNC, TRY_ACQUIRE_SLOT, RELEASE_SLOT, RENEW_SLOT, SLOTS_IN_USE, TRY_TAKE_RETRY,
        REFUND_RETRY, RETRY_BUDGET_REMAINING, SNAPSHOT, TROUBLED, CLEAR;

        String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private final StateStore store;
    private final TimeSource time;
    private final Map<Command, Timer> ok = new EnumMap<>(Command.class);
    private final Map<Command, Timer> failed = new EnumMap<>(Command.class);

    private TimedStateStore(StateStore store, MeterRegistry registry, TimeSource time) {
        this.store = store;
        this.time = time;
        for (Command c : Command.values()) {
            ok.put(c, timer(registry, c, "ok"));
            failed.put(c, timer(registry, c, "error"));
        }
    }

    private static Timer timer(MeterRegistry registry, Command c, String outcome) {
        return Timer.builder("cloudg.redis.command").tag("store", "governor").tag("command", c.label())
                .tag("outcome", outcome).serviceLevelObjectives(BUCKETS)
                .description("Round trips of cloudg's Redis stores, by store operation").register(registry);
    }

    /** {@code store} timed into {@code metrics}; {@code store} itself when metrics are off. */
    public static StateStore wrap(StateStore store, CloudgMetrics metrics) {
        return metrics.enabled() ? new TimedStateStore(store, metrics.registry(), metrics.time()) : store;
    }

    private <T> T timed(Command c, Supplier<T> op) {
        long t0 = time.nanoTime();
        try {
            T v = op.get();
            ok.get(c).record(time.nanoTime() - t0, TimeUnit.NANOSECONDS);
            return v;
        } catch (RuntimeException e) {
            failed.get(c).record(time.nanoTime() - t0, TimeUnit.NANOSECONDS);
            throw e;
        }
    }

    private void timedRun(Command c, Runnable op) {
        timed(c, () -> {
            op.run();
            return null;
        });
    }

    @Override
    public Admission admit(AdmitRequest request) {
        return timed(Command.ADMIT, () -> store.admit(request));
    }

    @Override
    public OutcomeResult record(OutcomeRequest request) {
        return timed(Command.RECORD, () -> store.record(request));
    }

    @Override
    public CompletionStage<Void> recordAsync(OutcomeRequest request) {
        long t0 = time.nanoTime();
        CompletionStage<Void> stage;
        try {
            stage = store.recordAsync(request);
        } catch (RuntimeException e) {
            failed.get(Command.RECORD_ASYNC).record(time.nanoTime() - t0, TimeUnit.NANOSECONDS);
            throw e;
        }
        stage.whenComplete((v, e) -> (e == null ? ok : failed).get(Command.RECORD_ASYNC)
                .record(time.nanoTime() - t0, TimeUnit.NANOSECONDS));
        return stage;
    }

    @Override
    public SlotLease tryAcquireSlot(SlotRequest request) {
        return timed(Command.TRY_ACQUIRE_SLOT, () -> store.tryAcquireSlot(request));
    }

    @Override
    public void releaseSlot(SlotLease lease) {
        timedRun(Command.RELEASE_SLOT, () -> store.releaseSlot(lease));
    }

    @Override
    public boolean renewSlot(SlotLease lease, long leaseNanos) {
        return timed(Command.RENEW_SLOT, () -> store.renewSlot(lease, leaseNanos));
    }

    @Override
    public int slotsInUse(Scope bulkhead) {
        return timed(Command.SLOTS_IN_USE, () -> store.slotsInUse(bulkhead));
    }

    @Override
    public boolean tryTakeRetry(String provider, int size) {
        return timed(Command.TRY_TAKE_RETRY, () -> store.tryTakeRetry(provider, size));
    }

    @Override
    public void refundRetry(String provider, int size) {
        timedRun(Command.REFUND_RETRY, () -> store.refundRetry(provider, size));
    }

    @Override
    public double retryBudgetRemaining(String provider, int size) {
        return timed(Command.RETRY_BUDGET_REMAINING, () -> store.retryBudgetRemaining(provider, size));
    }

    @Override
    public StoreSnapshot snapshot() {
        return timed(Command.SNAPSHOT, store::snapshot);
    }

    @Override
    public StoreSnapshot troubled() {
        return timed(Command.TROUBLED, store::troubled);
    }

    @Override
    public void clear() {
        timedRun(Command.CLEAR, store::clear);
    }

    @Override
    public String describe() {
        return store.describe();
    }

    @Override
    public Optional<StoreStatus> status() {
        return store.status();
    }

    @Override
    public Optional<io.cloudg.resilience.spi.EstateKeyed> estateKeyed() {
        return store.estateKeyed();
    }

    @Override
    public void close() {
        store.close();
    }
}
