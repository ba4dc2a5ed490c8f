package io.cloudg.resilience.redis;

import io.cloudg.resilience.spi.StateStoreUnavailableException;
import io.cloudg.resilience.time.TimeSource;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * This process in the estate's set of live processes ({@link RedisKeys#processes()}, cloudg.lua's {@code member}),
 * and the number of live processes as last seen there: what a degraded process divides every limit by.
 *
 * <p>A store says it is live on its first admission and again at most every {@link #BEAT_NANOS} of the governor's
 * {@link TimeSource} while it keeps admitting, without waiting for the reply (the count is updated when it
 * comes; a failure leaves the last count). Redis drops a process not heard from for {@link #LAPSE_MILLIS} of its
 * own time, and a store that closes leaves at once. A process that stopped calling stops counting, which is
 * right: it no longer spends the quotas.
 */
final class Members {
    /** How often a store that keeps admitting says it is live. */
    static final long BEAT_NANOS = TimeUnit.SECONDS.toNanos(5);
    /** How long a process counts as live after it last said so (four beats: a loaded process may be late). */
    static final long LAPSE_MILLIS = 4 * TimeUnit.NANOSECONDS.toMillis(BEAT_NANOS);

    private final ScriptCalls calls;
    private final StoreClock clock;
    private final TimeSource time;
    private final byte[] key;
    private final byte[] id;
    private final byte[] lapse = ScriptArgs.bytes(Long.toString(LAPSE_MILLIS));
    /** When this store last said it is live (governor's clock); {@code Long.MIN_VALUE} before the first time. */
    private final AtomicLong lastBeat = new AtomicLong(Long.MIN_VALUE);
    private volatile int live;

    Members(ScriptCalls calls, StoreClock clock, TimeSource time, RedisKeys keys) {
        this.calls = calls;
        this.clock = clock;
        this.time = time;
        this.key = ScriptArgs.bytes(keys.processes());
        this.id = ScriptArgs.bytes(ProcessHandle.current().pid() + "-" + UUID.randomUUID());
    }

    /** On an admission: says this process is live if it has not for {@link #BEAT_NANOS}; never waits. */
    void beat() {
        long now = time.nanoTime();
        long last = lastBeat.get();
        if (last != Long.MIN_VALUE && now - last < BEAT_NANOS || !lastBeat.compareAndSet(last, now)) {
            return;
        }
        try {
            calls.call(Script.MEMBER, ScriptArgs.Member.keys(key), ScriptArgs.Member.argv(ScriptArgs.injectedNow(clock),
                    id, lapse, false)).whenComplete((reply, e) -> {
                        if (e == null) {
                            live = (int) ScriptCalls.longOf(reply);
                        }
                    });
        } catch (RuntimeException e) {
            // not sent: the next beat tries again; the last count stands
        }
    }

    /**
     * Says this process is live now and waits for the count (at start, so that the count is known before the
     * first admission).
     *
     * @throws StateStoreUnavailableException when Redis does not answer
     */
    int announce() {
        lastBeat.set(time.nanoTime());
        live = (int) ScriptCalls.longOf(calls.await(calls.call(Script.MEMBER, ScriptArgs.Member.keys(key),
                ScriptArgs.Member.argv(ScriptArgs.injectedNow(clock), id, lapse, false)), "say this process is live"));
        return live;
    }

    /** Leaves the set (on close; a store that cannot say so lapses). */
    void leave() {
        try {
            calls.await(calls.call(Script.MEMBER, ScriptArgs.Member.keys(key), ScriptArgs.Member.argv(
                    ScriptArgs.injectedNow(clock), id, lapse, true)), "leave the set of live processes");
        } catch (RuntimeException e) {
            // it lapses within LAPSE_MILLIS
        }
    }

    /** The live processes as last seen in Redis, this one included; 0 before the first count. */
    int live() {
        return live;
    }
}
