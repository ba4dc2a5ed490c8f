package io.cloudg.sim.quota;

import java.util.concurrent.locks.ReentrantLock;

/**
 * One bucket's mutable home: the current state of its pure model ({@link TokenBucket} or
 * {@link FixedWindow}), and exact statistics. The {@link QuotaBook} locks cells (in key order when a call
 * charges several) and moves them from one state to the next.
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
            return new BucketStats(key, calls, throttled, calls - throttled, maxInWindow, quota.ratePerSecond(),
                quota.capacity(), neighbour.share(), Math.floor(theirs), windowed ? "fixed_window" : "token_bucket",
                windowed ? ((WindowLimit) quota).windowNanos() / 1e9 : 0);
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
