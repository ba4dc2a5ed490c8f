package io.cloudg.mcp.guard;

import io.cloudg.mcp.config.LiveLimits;
import io.cloudg.resilience.time.TimeSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The guard rails around every live MCP tool (the spec's "Guard rails for live collections"):
 * <ul>
 *   <li>Identical calls in flight at once share one run: a second identical call waits for the first and
 *       gets its outcome with {@code joined = true}; it starts nothing and counts against nothing. Joining
 *       is per server process (the result lives here); across replicas an identical call is refused as
 *       busy.</li>
 *   <li>At most {@code live_max_concurrent} operations per scope and {@code live_max_concurrent_total}
 *       overall, counted in the {@link GuardStore} (shared by replicas when it is Redis).</li>
 *   <li>After every operation, whatever its end (success, failure, timeout, shutdown), each of its scopes
 *       cools down for {@code live_cooldown_seconds} (the provider's own value winning).</li>
 *   <li>Optionally, at most {@code live_caller_max_operations} starts per principal per
 *       {@code live_caller_window_seconds}.</li>
 *   <li>An operation still running after {@code live_operation_timeout_seconds} is interrupted and its
 *       scopes are freed at once (its callers get {@link OperationState#TIMED_OUT}).</li>
 *   <li>{@code force=true} skips the cooldown, never the caps or the quota, and only for principals with
 *       the admin or operator role; anyone else gets {@link ForceNotAllowedException}.</li>
 * </ul>
 * A refusal is a {@link LiveRefusedException} whose {@link Refusal} names the reason, the limit, the wait
 * and the newest dataset covering the same providers.
 *
 * <p>Time: one injected {@link TimeSource} drives the operation timeout (tests advance a
 * {@code ManualTimeSource}); cooldowns, caps and quotas run on the store's clock.
 */
public final class LiveOperationGuard implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger("cloudg.mcp.guard");
    /**
     * A registration's lease: a replica that dies without finishing an operation holds its scopes at most
     * this long. The guard renews it every {@link #HEARTBEAT_DIVISOR}th of it while the operation runs.
     */
    static final long LEASE_MILLIS = 120_000;
    static final int HEARTBEAT_DIVISOR = 4;

    private final GuardStore store;
    private final TimeSource time;
    private final LiveLimits limits;
    private final Function<Set<String>, Optional<String>> newestDataset;
    private final GuardListener listener;
    private final ExecutorService pool;
    private final Object lock = new Object();
    private final Map<String, Running<?>> running = new HashMap<>();
    private volatile boolean closed;

    /**
     * @param store where caps, cooldowns and quotas are kept
     * @param time the clock of operation timeouts
     * @param limits the {@code live_*} keys of {@code ratelimit}, with per-provider cooldowns
     * @param newestDataset the newest saved dataset covering the given providers, for refusals
     * @param listener hears every decision
     */
    public LiveOperationGuard(GuardStore store, TimeSource time, LiveLimits limits,
                              Function<Set<String>, Optional<String>> newestDataset, GuardListener listener) {
        this.store = store;
        this.time = time;
        this.limits = limits;
        this.newestDataset = newestDataset;
        this.listener = listener == null ? GuardListener.NONE : listener;
        this.pool = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "cloudg-live-operation");
            t.setDaemon(true);
            return t;
        });
    }

    public GuardStore store() {
        return store;
    }

    public LiveLimits liveLimits() {
        return limits;
    }

    /** The cooldown that follows an operation on {@code scope}, in seconds. */
    public int cooldownSeconds(LiveScope scope) {
        return limits.cooldownSeconds(scope.provider());
    }

    /**
     * Runs {@code work} for {@code call} under the guard rails, or joins an identical run in flight, and
     * waits for the outcome.
     *
     * @throws ForceNotAllowedException {@code force} from a principal that may not force
     * @throws LiveRefusedException the guard refused (busy, cooldown, quota)
     * @throws GuardUnavailableException a shared store could not be reached
     * @throws InterruptedException the calling thread was interrupted while waiting (the operation goes on)
     */
    public <R> GuardOutcome<R> run(LiveCall call, Principal principal, boolean force, LiveWork<R> work)
            throws InterruptedException {
        if (closed) {
            throw new IllegalStateException("the live-operation guard is closed (the MCP server is stopping)");
        }
        if (force && !principal.mayForce()) {
            throw new ForceNotAllowedException(principal);
        }
        Running<R> mine;
        Running<R> existing;
        synchronized (lock) {
            @SuppressWarnings("unchecked")
            Running<R> same = (Running<R>) running.get(call.identity());
            existing = same;
            if (existing != null) {
                listener.joined(existing.id, call, principal);
                LOG.info("{} by {} joined operation {}", call.tool(), principal.name(), existing.id);
                mine = null;
            } else {
                mine = start(call, principal, force);
            }
        }
        if (existing != null) {
            return await(existing).asJoined();
        }
        LOG.info("{} by {} started as {} on {}{}", call.tool(), principal.name(), mine.id, call.scopeNames(),
                force ? " (forced past the cooldown)" : "");
        mine.begin(work);
        listener.started(mine.id, call, principal, force);
        return await(mine);
    }

    /** Asks the store (under the lock) and registers the run locally; throws the refusal. */
    private <R> Running<R> start(LiveCall call, Principal principal, boolean force) {
        Running<R> mine = new Running<>("op-" + UUID.randomUUID(), call, cooldowns(call));
        StartDecision d;
        try {
            d = store.tryStart(request(mine, principal, force));
        } catch (GuardUnavailableException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new GuardUnavailableException("the live-operation guard's store failed: " + e.getMessage(), e);
        }
        if (!d.started()) {
            Refusal r = refusal(call, d);
            listener.refused(call, principal, r);
            LOG.info("{} by {} refused: {}", call.tool(), principal.name(), r.message());
            throw new LiveRefusedException(r);
        }
        running.put(call.identity(), mine);
        return mine;
    }

    /** The guard's shared state as {@code principal} sees it (cooldowns, operations, its quota use). */
    public GuardSnapshot snapshot(Principal principal) {
        return store.snapshot(principal.name(), limits.callerWindowSeconds() * 1000L);
    }

    /** Operations this process runs, by id (joins happen only here). */
    public List<String> runningHere() {
        synchronized (lock) {
            return running.values().stream().map(r -> r.id).toList();
        }
    }

    /** Cancels every operation this process runs (their scopes are freed and cool down) and stops. */
    @Override
    public void close() {
        List<Running<?>> all;
        closed = true;
        synchronized (lock) {
            all = new ArrayList<>(running.values());
        }
        for (Running<?> r : all) {
            r.end(OperationState.CANCELLED, null, "the MCP server is shutting down");
        }
        pool.shutdownNow();
    }

    private <R> GuardOutcome<R> await(Running<R> r) throws InterruptedException {
        try {
            return r.outcome.get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("a guarded operation's outcome failed", e.getCause());
        }
    }

    private List<ScopeCooldown> cooldowns(LiveCall call) {
        return call.scopes().stream()
                .map(s -> new ScopeCooldown(s.toString(), limits.cooldownSeconds(s.provider()) * 1000L)).toList();
    }

    private StartRequest request(Running<?> r, Principal p, boolean force) {
        LiveLimits l = limits;
        return new StartRequest(r.id, p.name(), r.call.tool(), r.cooldowns, force, l.maxConcurrent(), l.maxConcurrentTotal(),
                l.callerMaxOperations(), l.callerWindowSeconds() * 1000L, LEASE_MILLIS);
    }

    private Refusal refusal(LiveCall call, StartDecision d) {
        long seconds = Math.max(1, (d.retryAfterMillis() + 999) / 1000);
        String dataset = newestDataset.apply(call.providers()).orElse(null);
        return new Refusal(call.tool(), d.reason(), d.limit(), seconds, dataset, d.blockingScopes());
    }

    /** One operation this process started: its state, its work's thread and the outcome its callers wait for. */
    private final class Running<R> {
        final String id;
        final LiveCall call;
        final List<ScopeCooldown> cooldowns;
        final AtomicReference<OperationState> state = new AtomicReference<>(OperationState.RUNNING);
        final CompletableFuture<GuardOutcome<R>> outcome = new CompletableFuture<>();
        final long startedNanos = time.nanoTime();
        volatile Future<?> task;

        Running(String id, LiveCall call, List<ScopeCooldown> cooldowns) {
            this.id = id;
            this.call = call;
            this.cooldowns = cooldowns;
        }

        void begin(LiveWork<R> work) {
            long timeoutNanos = limits.operationTimeoutSeconds() * 1_000_000_000L;
            time.delay(timeoutNanos).thenRun(() -> end(OperationState.TIMED_OUT, null,
                    "cancelled after live_operation_timeout_seconds (" + limits.operationTimeoutSeconds() + " s)"));
            heartbeat();
            try {
                task = pool.submit(() -> {
                    try {
                        end(OperationState.SUCCEEDED, work.run(id), null);
                    } catch (InterruptedException e) {
                        end(OperationState.FAILED, null, "interrupted");
                    } catch (Exception | LinkageError | AssertionError e) {
                        end(OperationState.FAILED, null, e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
                    }
                });
            } catch (java.util.concurrent.RejectedExecutionException e) {
                end(OperationState.CANCELLED, null, "the MCP server is shutting down");
                return;
            }
            if (state.get().terminal()) {
                task.cancel(true); // ended (timed out, cancelled) before the task existed
            }
        }

        /** Renews the registration every quarter lease until the operation ends. */
        void heartbeat() {
            time.delay(LEASE_MILLIS / HEARTBEAT_DIVISOR * 1_000_000L).thenRun(() -> {
                if (state.get().terminal()) {
                    return;
                }
                try {
                    if (!store.renew(id, LEASE_MILLIS)) {
                        LOG.warn("operation {} lost its registration (lease lapsed or store reset): its scopes are "
                                + "no longer held for it", id);
                    }
                } catch (RuntimeException e) {
                    LOG.warn("operation {}: renewing its registration failed: {}", id, e.getMessage());
                }
                heartbeat();
            });
        }

        /** Applies {@code RUNNING -> to} once; the winner frees the scopes and completes the outcome. */
        void end(OperationState to, R value, String error) {
            OperationState from = state.get();
            if (!from.canBecome(to) || !state.compareAndSet(from, to)) {
                return;
            }
            long durationMillis = (time.nanoTime() - startedNanos) / 1_000_000L;
            synchronized (lock) {
                running.remove(call.identity(), this);
            }
            try {
                store.finish(id, cooldowns);
            } catch (RuntimeException e) {
                LOG.warn("operation {} ended but the guard store could not record it ({}); its registration lapses "
                        + "after the lease", id, e.getMessage());
            }
            if (to == OperationState.TIMED_OUT || to == OperationState.CANCELLED) {
                Future<?> t = task;
                if (t != null) {
                    t.cancel(true);
                }
            }
            listener.finished(id, call, to, durationMillis);
            LOG.info("operation {} ({}) {} after {} ms{}", id, call.tool(), to, durationMillis, error == null ? "" : ": " + error);
            outcome.complete(new GuardOutcome<>(id, false, to, value, error, durationMillis));
        }
    }
}
