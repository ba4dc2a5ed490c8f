package io.cloudg.resilience.redis;

import io.cloudg.resilience.spi.Scope;
import io.cloudg.resilience.spi.SlotLease;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Slot releases of plain successes, held back for a moment and sent per bulkhead in one {@code HDEL} (the
 * library's {@code free}, which rides in a lane's batch run like an admission), instead of one outcome script
 * per success.
 *
 * <p>Contract:
 * <ul>
 *   <li>a release is sent at the latest {@code delay} after it was deferred (a timer of this store, not the
 *       governor's clock: it only bounds how long a slot stays held), or at once when
 *       {@link #MAX_IDS} of its bulkhead are waiting;</li>
 *   <li>{@link #flush(Scope)} queues the bulkhead's waiting releases before whatever the caller queues
 *       next for it: the scripts of one provider x account share a lane and run in queue order, so a slot
 *       operation after a flush sees every release deferred before it;</li>
 *   <li>a release sent late only keeps a slot held longer: the bulkhead's cap can only be undercut, never
 *       exceeded; releases that cannot be sent (Redis out of reach, the store closed) are dropped, and their
 *       leases expire as a dead worker's do.</li>
 * </ul>
 */
final class DeferredReleases implements AutoCloseable {
    /** How long a release waits for company by default. */
    static final Duration DELAY = Duration.ofMillis(2);
    /** Releases of one bulkhead that go out at once, without waiting for the timer. */
    static final int MAX_IDS = 64;
    private static final CompletableFuture<Object> NOTHING = CompletableFuture.completedFuture(null);

    private final ScriptRunner runner;
    private final RedisKeys keys;
    private final long delayNanos;
    private final ConcurrentHashMap<Scope, Pending> pending = new ConcurrentHashMap<>();
    /**
     * The bulkheads with releases waiting (each once, whatever it holds): the timer's flush takes these
     * instead of walking every bulkhead the process ever used (an organization-wide map uses one per account).
     */
    private final ConcurrentLinkedQueue<Pending> waiting = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean scheduled = new AtomicBoolean();
    private ScheduledExecutorService timer;
    /** The last flush the timer was asked for (tests wait for it instead of sleeping). */
    private volatile ScheduledFuture<CompletableFuture<Void>> timed;
    private boolean closed;

    DeferredReleases(ScriptRunner runner, RedisKeys keys, Duration delay) {
        this.runner = runner;
        this.keys = keys;
        this.delayNanos = delay.toNanos();
    }

    /** The waiting releases of one bulkhead: lease ids separated by spaces, as {@code free} reads them. */
    private final class Pending {
        final byte[] key;
        private final StringBuilder ids = new StringBuilder();
        private int count;
        /** Whether it is in {@link #waiting}; true whenever {@code count > 0}. */
        private boolean queued;

        Pending(Scope bulkhead) {
            this.key = keys.bulkhead(bulkhead).getBytes(StandardCharsets.UTF_8);
        }

        synchronized int add(long id) {
            if (count > 0) {
                ids.append(' ');
            }
            ids.append(id);
            if (!queued) {
                queued = true;
                waiting.add(this);
            }
            return ++count;
        }

        synchronized boolean any() {
            return count > 0;
        }

        /** Queues what waits (taking it and queueing it under one lock keeps the ids in order). */
        synchronized CompletableFuture<Object> send() {
            if (count == 0) {
                return NOTHING;
            }
            byte[] b = ids.toString().getBytes(StandardCharsets.US_ASCII);
            ids.setLength(0);
            count = 0;
            return runner.call(Script.FREE, ScriptArgs.Free.keys(key), ScriptArgs.Free.argv(b)).exceptionally(e -> null);
        }

        /** Sends what waits, taken off {@link #waiting} by the caller. */
        synchronized CompletableFuture<Object> dequeuedSend() {
            queued = false;
            return send();
        }

        synchronized void drop() {
            ids.setLength(0);
            count = 0;
        }
    }

    /** Holds {@code lease}'s release back (or sends it at once when there is no delay or enough wait). */
    void defer(SlotLease lease) {
        Pending p = pending.computeIfAbsent(lease.bulkhead(), Pending::new);
        if (p.add(lease.id()) >= MAX_IDS || delayNanos <= 0) {
            p.send();
        } else if (scheduled.compareAndSet(false, true)) {
            schedule();
        }
    }

    private synchronized void schedule() {
        if (closed) {
            scheduled.set(false);
            return;
        }
        if (timer == null) {
            timer = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "cloudg-redis-releases");
                t.setDaemon(true);
                return t;
            });
        }
        timed = timer.schedule(this::flushAll, delayNanos, TimeUnit.NANOSECONDS);
    }

    /** TEST ONLY: the timer's last flush (it completes with the flush's own future), or null. */
    ScheduledFuture<CompletableFuture<Void>> lastTimedFlush() {
        return timed;
    }

    /** Whether releases of {@code bulkhead} wait. */
    boolean hasPending(Scope bulkhead) {
        Pending p = pending.get(bulkhead);
        return p != null && p.any();
    }

    /** Queues the waiting releases of {@code bulkhead}; the future completes when Redis applied them. */
    CompletableFuture<Object> flush(Scope bulkhead) {
        Pending p = pending.get(bulkhead);
        return p == null ? NOTHING : p.send();
    }

    /** Queues every waiting release; the future completes when Redis applied them all. */
    CompletableFuture<Void> flushAll() {
        scheduled.set(false); // before taking: a release deferred from now on schedules another flush
        List<CompletableFuture<Object>> sent = new ArrayList<>();
        for (Pending p; (p = waiting.poll()) != null; ) {
            sent.add(p.dequeuedSend());
        }
        return CompletableFuture.allOf(sent.toArray(new CompletableFuture[0]));
    }

    /**
     * Forgets the bulkheads of {@code provider}, whose keys change (its estate was told): what waits of theirs is
     * sent first, to the keys its leases were taken under. The future completes when Redis applied it.
     */
    CompletableFuture<Void> forget(String provider) {
        CompletableFuture<Void> sent = flushAll();
        pending.keySet().removeIf(b -> provider.equals(b.provider()));
        return sent;
    }

    /** Forgets every waiting release (the state was deleted). */
    void discard() {
        for (Pending p : pending.values()) {
            p.drop();
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (timer != null) {
            timer.shutdownNow();
        }
    }
}
