package io.cloudg.resilience.redis;

import io.cloudg.resilience.spi.StateStoreUnavailableException;
import io.cloudg.resilience.time.TimeSource;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * This process in the estate's set of processes ({@link RedisKeys#processes()}, cloudg.lua's {@code member}), and
 * the set as last counted there ({@link Presence}): the fleet a degraded process divides every limit by, and the
 * share of every shared bucket a healthy process may spend while others are presumed degraded.
 *
 * <p>A store says it is live on its first admission and again at most every {@link #BEAT_NANOS} of the governor's
 * {@link TimeSource}, while it keeps admitting or, idle, from {@link #idleBeat()} (a timer of the store's) as long
 * as its last admission was answered, without waiting for the reply (the count is updated when it comes; a failure
 * leaves the last count). An idle process that stopped beating would count as missing and halve the others for
 * nothing; a process whose admissions fail stops beating, which is what makes it missing. Redis counts a process
 * silent for longer than the lapse as missing and drops it after the forget time, both of its own time; a store
 * that closes leaves at once.
 *
 * <p>The share is learned from the reply of a beat, never read on an admission: the admission script takes it as
 * an argument, so the hot path costs nothing more, and in Redis Cluster the set's slot never meets a leaf's.
 */
final class Members {
    /** How often a store says it is live. */
    static final long BEAT_NANOS = TimeUnit.SECONDS.toNanos(5);

    private final ScriptCalls calls;
    private final StoreClock clock;
    private final TimeSource time;
    private final int fleetSizeHint;
    private final byte[] key;
    private final byte[] id;
    private final byte[] lapse;
    private final byte[] forget;
    /** When this store last said it is live (governor's clock); {@code Long.MIN_VALUE} before the first time. */
    private final AtomicLong lastBeat = new AtomicLong(Long.MIN_VALUE);
    private volatile Presence.Count count = Presence.Count.NONE;
    private volatile Share share = Share.WHOLE;
    /**
     * Whether this store's last admission (or its announcement) was answered: an idle store keeps beating only
     * then, so a store that never admitted (an admin command's) never joins the set.
     */
    private volatile boolean answered;

    /** The part of the shared buckets this process may spend (one object per value: the hot path compares it). */
    record Share(double value) {
        static final Share WHOLE = new Share(1.0);
    }

    Members(ScriptCalls calls, StoreClock clock, TimeSource time, RedisKeys keys, Presence.Policy policy,
            int fleetSizeHint) {
        this.calls = calls;
        this.clock = clock;
        this.time = time;
        this.fleetSizeHint = fleetSizeHint;
        this.key = ScriptArgs.bytes(keys.processes());
        this.id = ScriptArgs.bytes(ProcessHandle.current().pid() + "-" + UUID.randomUUID());
        this.lapse = ScriptArgs.bytes(Long.toString(policy.lapseMillis()));
        this.forget = ScriptArgs.bytes(Long.toString(policy.forgetMillis()));
    }

    /** On an admission: says this process is live if it has not for {@link #BEAT_NANOS}; never waits. */
    void beat() {
        long now = time.nanoTime();
        long last = lastBeat.get();
        if (last != Long.MIN_VALUE && now - last < BEAT_NANOS || !lastBeat.compareAndSet(last, now)) {
            return;
        }
        try {
            calls.call(Script.MEMBER, ScriptArgs.Member.keys(key), argv(false)).whenComplete((reply, e) -> {
                if (e == null) {
                    counted(reply);
                }
            });
        } catch (RuntimeException e) {
            // not sent: the next beat tries again; the last count stands
        }
    }

    /** From the store's timer: {@link #beat()} unless this store's last admission failed. */
    void idleBeat() {
        if (answered) {
            beat();
        }
    }

    /** Whether the last admission was answered (a failed one stops the idle beats until one is again). */
    void admitted(boolean wasAnswered) {
        if (answered != wasAnswered) {
            answered = wasAnswered;
        }
    }

    /**
     * Says this process is live now and waits for the count (at start, so that the count is known before the
     * first admission); returns the fleet (live and missing processes).
     *
     * @throws StateStoreUnavailableException when Redis does not answer
     */
    int announce() {
        lastBeat.set(time.nanoTime());
        counted(calls.await(calls.call(Script.MEMBER, ScriptArgs.Member.keys(key), argv(false)),
                "say this process is live"));
        answered = true;
        return count.fleet();
    }

    /** Leaves the set (on close; a store that cannot say so lapses, then counts as missing until forgotten). */
    void leave() {
        try {
            calls.await(calls.call(Script.MEMBER, ScriptArgs.Member.keys(key), argv(true)),
                    "leave the set of live processes");
        } catch (RuntimeException e) {
            // it lapses
        }
    }

    private Object[] argv(boolean leaving) {
        return ScriptArgs.Member.argv(ScriptArgs.injectedNow(clock), id, lapse, forget, leaving);
    }

    private void counted(Object reply) {
        var r = ScriptCalls.list(reply);
        Presence.Count c = new Presence.Count((int) ScriptCalls.longOf(r.get(0)), (int) ScriptCalls.longOf(r.get(1)));
        count = c;
        double s = Presence.refillShare(fleetSizeHint, c);
        if (s != share.value()) {
            share = s == 1.0 ? Share.WHOLE : new Share(s);
        }
    }

    /** The fleet as last counted in Redis (live and missing processes, this one included); 0 before the first count. */
    int live() {
        return count.fleet();
    }

    /** The part of every shared bucket this process may spend now ({@link Presence#refillShare}). */
    Share share() {
        return share;
    }
}
