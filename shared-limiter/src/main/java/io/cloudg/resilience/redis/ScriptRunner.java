package io.cloudg.resilience.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.redisson.api.BatchOptions;
import org.redisson.api.RBatch;
import org.redisson.api.RScript;
import org.redisson.api.RScriptAsync;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

/**
 * Runs the governor's scripts by SHA ({@code EVALSHA}); on {@code NOSCRIPT} (a restart or failover emptied
 * the script cache) it loads the script again and retries once.
 *
 * <p>Automatic pipelining: callers' scripts are queued and sent in pipelined batches (a Redisson
 * in-memory {@link RBatch}, one write per node) while at most {@code maxInFlight} batches are on the wire.
 * Under load many scripts share one write and one connection; when idle a script goes out alone at once,
 * so pipelining adds no latency. Each script still runs atomically on the server; a batch is not a
 * transaction and needs none.
 */
final class ScriptRunner {
    private final RedissonClient client;
    private final RScript direct;
    private final int maxBatch;
    private final int maxInFlight;
    private final ConcurrentLinkedQueue<Call> queue = new ConcurrentLinkedQueue<>();
    private final AtomicInteger inFlight = new AtomicInteger();

    private record Call(Script script, List<Object> keys, Object[] args, CompletableFuture<Object> result) {
    }

    ScriptRunner(RedissonClient client, int maxBatch, int maxInFlight) {
        this.client = client;
        this.direct = client.getScript(StringCodec.INSTANCE);
        this.maxBatch = Math.max(1, maxBatch);
        this.maxInFlight = Math.max(1, maxInFlight);
    }

    /** Loads every script (startup); failures are left to the NOSCRIPT path. */
    void loadAll() {
        for (Script s : Script.values()) {
            String sha = direct.scriptLoad(s.text);
            if (!sha.equalsIgnoreCase(s.sha)) {
                throw new IllegalStateException("Redis computed SHA " + sha + " for " + s + ", expected " + s.sha);
            }
        }
    }

    /** Runs {@code script}; the future holds a {@code List} (table reply) or a {@code String}. */
    CompletableFuture<Object> call(Script script, List<Object> keys, Object... args) {
        CompletableFuture<Object> result = new CompletableFuture<>();
        if (maxBatch == 1) {
            runDirect(new Call(script, keys, args, result), true);
            return result;
        }
        queue.add(new Call(script, keys, args, result));
        dispatch();
        return result;
    }

    private static RScript.ReturnType returnType(Script s) {
        return s == Script.SLOTS || s == Script.GLOBAL ? RScript.ReturnType.VALUE : RScript.ReturnType.MULTI;
    }

    private void dispatch() {
        while (!queue.isEmpty()) {
            int n = inFlight.get();
            if (n >= maxInFlight) {
                return;
            }
            if (!inFlight.compareAndSet(n, n + 1)) {
                continue;
            }
            List<Call> calls = new ArrayList<>();
            Call c;
            while (calls.size() < maxBatch && (c = queue.poll()) != null) {
                calls.add(c);
            }
            if (calls.isEmpty()) {
                inFlight.decrementAndGet();
                continue;
            }
            send(calls).whenComplete((v, e) -> {
                inFlight.decrementAndGet();
                dispatch();
            });
        }
    }

    private CompletableFuture<Void> send(List<Call> calls) {
        if (calls.size() == 1) {
            return runDirect(calls.get(0), true);
        }
        RBatch batch = client.createBatch(BatchOptions.defaults().executionMode(BatchOptions.ExecutionMode.IN_MEMORY));
        RScriptAsync script = batch.getScript(StringCodec.INSTANCE);
        List<CompletableFuture<Void>> each = new ArrayList<>(calls.size());
        for (Call c : calls) {
            CompletableFuture<Object> f = script.evalShaAsync(RScript.Mode.READ_WRITE, c.script.sha,
                    returnType(c.script), c.keys, c.args).toCompletableFuture();
            each.add(settle(c, f));
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        batch.executeAsync().whenComplete((r, e) -> {
            if (e != null) {
                // a failed batch may leave some commands unanswered: fail those (others settled themselves)
                for (Call c : calls) {
                    if (!c.result.isDone() && !RedisErrors.isNoScript(e)) {
                        c.result.completeExceptionally(e);
                    }
                }
            }
            CompletableFuture.allOf(each.toArray(new CompletableFuture[0])).whenComplete((x, y) -> done.complete(null));
        });
        return done;
    }

    private CompletableFuture<Void> settle(Call c, CompletableFuture<Object> f) {
        return f.handle((v, e) -> {
            if (e == null) {
                c.result.complete(v);
            } else if (RedisErrors.isNoScript(e)) {
                runDirect(c, true);
            } else {
                c.result.completeExceptionally(e);
            }
            return null;
        });
    }

    private CompletableFuture<Void> runDirect(Call c, boolean retryOnNoScript) {
        return direct.evalShaAsync(RScript.Mode.READ_WRITE, c.script.sha, returnType(c.script), c.keys, c.args)
                .toCompletableFuture()
                .handle((v, e) -> {
                    if (e == null) {
                        c.result.complete(v);
                    } else if (retryOnNoScript && RedisErrors.isNoScript(e)) {
                        direct.scriptLoadAsync(c.script.text).toCompletableFuture().whenComplete((sha, le) -> {
                            if (le != null) {
                                c.result.completeExceptionally(le);
                            } else {
                                runDirect(c, false);
                            }
                        });
                    } else {
                        c.result.completeExceptionally(e);
                    }
                    return null;
                });
    }
}
