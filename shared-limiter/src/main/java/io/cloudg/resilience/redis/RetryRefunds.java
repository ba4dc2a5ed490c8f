package io.cloudg.resilience.redis;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The retry budgets of a {@link RedisStateStore}: one hash per provider ({@link RedisKeys#budget}), changed only
 * by {@code cloudg.lua}'s {@code budget}. A take (a paid retry) or a read is one script run; refunds (one per
 * success) are counted locally and written {@link #PER_FLUSH} at a time, asynchronously, and with every take or
 * read: one script per 10 successes instead of one per success.
 *
 * <p>Drift: the shared balance lags by at most 9 refunds (0.9 token) per worker and provider, plus the
 * refunds of a write that failed while Redis was out of reach, which are kept and sent with the next one.
 */
final class RetryRefunds {
    /** Refunds batched locally per provider before they are written (10 refunds = 1 token). */
    static final int PER_FLUSH = 10;
    private static final byte[] TAKE = ScriptArgs.bytes("take");
    private static final byte[] PEEK = ScriptArgs.bytes("peek");

    private final ScriptCalls calls;
    private final RedisKeys keys;
    private final byte[] ttl;
    private final ConcurrentHashMap<String, Provider> providers = new ConcurrentHashMap<>();

    RetryRefunds(ScriptCalls calls, RedisKeys keys, long ttlMillis) {
        this.calls = calls;
        this.keys = keys;
        this.ttl = ScriptArgs.bytes(Long.toString(ttlMillis));
    }

    /** Takes a token of {@code provider}'s budget of {@code size} tokens, if it holds one. */
    boolean tryTake(String provider, int size) {
        return ScriptCalls.longOf(provider(provider).apply(TAKE, "take", size).get(0)) == 1;
    }

    /** Counts a refund; every {@link #PER_FLUSH}th sends the batch. */
    void refund(String provider, int size) {
        provider(provider).refund(size);
    }

    /** The balance in tokens, the refunds counted here included. */
    double remaining(String provider, int size) {
        return ScriptCalls.doubleOf(provider(provider).apply(PEEK, "peek", size).get(1)) / 1000.0;
    }

    /** Forgets the refunds not yet written (the state was deleted). */
    void clear() {
        providers.clear();
    }

    private Provider provider(String provider) {
        return providers.computeIfAbsent(provider, Provider::new);
    }

    /** The refunds of one provider not yet written, and its last asynchronous write. */
    private final class Provider {
        /** The budget key and the provider, encoded once (a String argument costs Redisson a buffer). */
        final byte[] key;
        final byte[] providerBytes;
        final AtomicInteger pending = new AtomicInteger();
        volatile CompletableFuture<Object> lastFlush = CompletableFuture.completedFuture(null);

        Provider(String provider) {
            this.key = ScriptArgs.bytes(keys.budget(provider));
            this.providerBytes = ScriptArgs.bytes(provider);
        }

        void refund(int size) {
            if (pending.incrementAndGet() >= PER_FLUSH) {
                synchronized (this) {
                    int n = pending.getAndSet(0);
                    if (n > 0) {
                        lastFlush = budget(PEEK, size, n).whenComplete((v, e) -> {
                            if (e != null) {
                                pending.addAndGet(n);
                            }
                        });
                    }
                }
            }
        }

        List<Object> apply(byte[] op, String opName, int size) {
            try {
                lastFlush.get(calls.timeoutMs(), TimeUnit.MILLISECONDS);
            } catch (Exception e) {
                // its refunds went back to pending; they go out with this call
            }
            int n = pending.getAndSet(0);
            try {
                return ScriptCalls.list(calls.await(budget(op, size, n), "retry budget " + opName));
            } catch (RuntimeException e) {
                pending.addAndGet(n);
                throw e;
            }
        }

        private CompletableFuture<Object> budget(byte[] op, int size, int refunds) {
            return calls.call(Script.BUDGET, ScriptArgs.Budget.keys(key),
                    ScriptArgs.Budget.argv(op, size, refunds, ttl, providerBytes));
        }
    }
}
