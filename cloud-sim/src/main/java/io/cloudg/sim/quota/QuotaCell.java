package io.cloudg.sim.quota;

import java.util.concurrent.locks.ReentrantLock;

/**
 * One bucket's mutable home: the current state of its pure model ({@link TokenBucket} or
 * {@link FixedWindow}), and exact statistics. The {@link QuotaBook} locks cells (in key order when a call
 * charges several) and moves them from one state to the next.
 *
 * <p>Empty time: after each charged call the model says how long the bucket will refuse a call from then on
 * (the wait of a call made at that instant: 0 when it would be admitted); until the next charge the state
 * only refills, so the bucket is empty from that call until that wait has passed or the next call comes,
 * whichever is first. Summed, this is exact, except that a neighbour's bursts between two calls are not
 * seen until the next call.
 */
final class QuotaCell {
    private static final long SECOND = 1_000_000_000L;

    final String key;
    final Quota quota;
    final Neighbour neighbour;
    final ReentrantLock lock = new ReentrantLock();
    private final TokenBucket.Config bucketConfig;
    private final FixedWindow.Config windowConfig;
    private Object state;
    private long calls;
    private long throttled;
    private long maxInWindow;
    /** Ring buffer of admission timestamps within the last second. */
    private long[] window = new long[64];
    private int head;
    private int size;
    /** When the last call was charged (the empty-time accounting's last event). */
    private long lastNanos;
    /** From {@link #lastNanos} on, the bucket refuses calls until this instant ({@code lastNanos}: not empty). */
    private long emptyUntilNanos;
    /** Empty time before {@link #lastNanos}. */
    private long emptyNanos;
    /** Start of the empty stretch still open at {@link #lastNanos}; -1: none. */
    private long stretchStartNanos = -1;
    private long longestEmptyNanos;

    QuotaCell(String key, Quota quota, Neighbour neighbour, long seed, boolean enforcing, long now) {
        this.key = key;
        this.quota = quota;
        this.neighbour = neighbour;
        if (quota instanceof Limit l) {
            this.bucketConfig = new TokenBucket.Config(l, neighbour, seed, enforcing);
            this.windowConfig = null;
            this.state = TokenBucket.initial(bucketConfig, now);
        } else {
            this.bucketConfig = null;
            this.windowConfig = new FixedWindow.Config((WindowLimit) quota, neighbour, seed, enforcing);
            this.state = FixedWindow.initial();
        }
        this.lastNanos = now;
        this.emptyUntilNanos = now;
    }

    /** The decision for a call at {@code now}, without changing anything. Caller holds the lock. */
    Step<?> peek(long now) {
        return bucketConfig != null ? TokenBucket.take((TokenBucket.State) state, now, bucketConfig)
            : FixedWindow.take((FixedWindow.State) state, now, windowConfig);
    }

    /** Charges a call: adopts the step's state and counts it. Caller holds the lock. */
    void commit(Step<?> step, long now) {
        state = step.state();
        calls++;
        if (step.admission().admitted()) {
            recordAdmission(now);
        } else {
            throttled++;
        }
        recordEmptiness(now);
    }

    /** Closes the interval since the last charged call and opens the next one, from the state at {@code now}. */
    private void recordEmptiness(long now) {
        long emptyEnd = Math.min(emptyUntilNanos, now);
        emptyNanos += Math.max(0, emptyEnd - lastNanos);
        Admission next = peek(now).admission();
        boolean emptyNow = !next.admitted();
        if (stretchStartNanos >= 0 && (emptyUntilNanos < now || !emptyNow)) { // the stretch ended before, or now
            longestEmptyNanos = Math.max(longestEmptyNanos, emptyEnd - stretchStartNanos);
            stretchStartNanos = -1;
        }
        if (emptyNow && stretchStartNanos < 0) {
            stretchStartNanos = now;
        }
        lastNanos = now;
        emptyUntilNanos = emptyNow ? now + next.retryAfterNanos() : now;
    }

    /** Calls available now, without taking any. */
    long available(long now) {
        lock.lock();
        try {
            return peek(now).admission().admitted() ? peek(now).admission().remaining() + 1 : 0;
        } finally {
            lock.unlock();
        }
    }

    BucketStats snapshot(long now) {
        lock.lock();
        try {
            double theirs;
            if (bucketConfig != null) {
                theirs = TokenBucket.advance((TokenBucket.State) state, now, bucketConfig).neighbourTokens();
            } else {
                theirs = FixedWindow.advance((FixedWindow.State) state, now, windowConfig).neighbourTotal();
            }
            boolean windowed = quota instanceof WindowLimit;
            long emptyEnd = Math.max(lastNanos, Math.min(emptyUntilNanos, now));
            long longest = Math.max(longestEmptyNanos, stretchStartNanos >= 0 ? emptyEnd - stretchStartNanos : 0);
            return new BucketStats(key, calls, throttled, calls - throttled, maxInWindow, quota.ratePerSecond(),
                quota.capacity(), neighbour.share(), Math.floor(theirs), windowed ? "fixed_window" : "token_bucket",
                windowed ? ((WindowLimit) quota).windowNanos() / 1e9 : 0, (emptyNanos + emptyEnd - lastNanos) / 1e9,
                longest / 1e9);
        } finally {
            lock.unlock();
        }
    }

    private void recordAdmission(long now) {
        long cutoff = now - SECOND;
        while (size > 0 && window[head] <= cutoff) {
            head = (head + 1) % window.length;
            size--;
        }
        if (size == window.length) {
            long[] grown = new long[window.length * 2];
            for (int i = 0; i < size; i++) {
                grown[i] = window[(head + i) % window.length];
            }
            window = grown;
            head = 0;
        }
        window[(head + size) % window.length] = now;
        size++;
        if (size > maxInWindow) {
            maxInWindow = size;
        }
    }

    @Override
    public String toString() {
        return "QuotaCell[" + key + ", " + quota + "]";
    }
}
