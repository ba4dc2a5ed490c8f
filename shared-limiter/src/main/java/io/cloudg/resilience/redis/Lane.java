package io.cloudg.resilience.redis;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.redisson.client.RedisConnectionException;
import org.redisson.client.RedisException;

/**
 * One of a master's lanes ({@link ScriptRunner}): a queue and a dedicated connection. Callers queue a script
 * (or a PING, a SCRIPT LOAD) and wait on its future; the connection's event loop drains the queue into
 * pipelined writes of at most {@code maxBatch} commands, admissions, outcomes and deferred releases found side
 * by side becoming one run of the batch script, and the replies complete the futures in order.
 *
 * <p>At most {@link ScriptRunner#IN_FLIGHT} flushes await their answers; the last answer of one flushes what
 * queued meanwhile, so batches grow with the round trip under load while an idle lane sends a script at
 * once. A closed connection, or one to a server that is no longer the master, is replaced on the next write
 * (its flushes in flight are forgotten); while no connection can be made, what is queued fails at once.
 */
final class Lane {
    /** A command other than a script in a lane's queue: PING, or SCRIPT LOAD of {@code text}. */
    record Plain(String scriptLoad, CompletableFuture<Object> reply) {
        void addTo(RedissonInternals.Write w) {
            if (scriptLoad == null) {
                w.ping(reply);
            } else {
                w.scriptLoad(scriptLoad, reply);
            }
        }
    }

    private final ScriptRunner runner;
    private final Object master;
    /** {@link ScriptRunner.Call}s and {@link Plain} commands (PING, SCRIPT LOAD). */
    private final Queue<Object> queue = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean scheduled = new AtomicBoolean();
    /** Writes sent on the current connection and not yet answered in full (at most {@link #ScriptRunner.IN_FLIGHT}). */
    private final java.util.concurrent.atomic.AtomicInteger inFlight = new java.util.concurrent.atomic.AtomicInteger();
    /** Bumped when the connection is dropped or replaced: answers to older writes no longer count. */
    private volatile int generation;
    private volatile RedissonInternals.Connection conn;
    private CompletableFuture<RedissonInternals.Connection> connecting;
    private CompletableFuture<Void> reloading;

    Lane(ScriptRunner runner, Object master) {
        this.runner = runner;
        this.master = master;
    }

    /** Whether anything waits in the queue or for its answer. */
    boolean busy() {
        return !queue.isEmpty() || inFlight.get() > 0;
    }

    /** TEST ONLY: what waits in the queue. */
    int queued() {
        return queue.size();
    }

    void submit(Object item) {
        queue.add(item);
        kick();
    }

    /**
     * Makes sure a flush is on its way (unless runner.held() by a test, or {@link #ScriptRunner.IN_FLIGHT} writes wait for their
     * answers: the last answer to come flushes what queued meanwhile).
     */
    void kick() {
        if (runner.held() || queue.isEmpty() || inFlight.get() >= ScriptRunner.IN_FLIGHT || !scheduled.compareAndSet(false, true)) {
            return; // a flush is on its way, or an answer to come, and will take this one
        }
        RedissonInternals.Connection c = current();
        if (c != null) {
            c.execute(this::flush);
            return;
        }
        connect().whenComplete((x, e) -> {
            if (e != null) {
                failQueued(e);
            } else {
                x.execute(this::flush);
            }
        });
    }

    /** The connection to use, or null when one must be made (none yet, runner.closed(), or the master changed). */
    private RedissonInternals.Connection current() {
        RedissonInternals.Connection c = conn;
        if (c == null) {
            return null;
        }
        if (c.isClosed() || !runner.transport().serves(master, c)) {
            synchronized (this) {
                if (conn == c) {
                    conn = null;
                    forgetInFlight();
                }
            }
            c.close();
            return null;
        }
        return c;
    }

    private synchronized CompletableFuture<RedissonInternals.Connection> connect() {
        if (runner.closed()) {
            return CompletableFuture.failedFuture(new RedisConnectionException("the governor store is runner.closed()"));
        }
        if (connecting != null && !connecting.isDone()) {
            return connecting;
        }
        RedissonInternals.Connection c = conn;
        if (c != null && !c.isClosed()) {
            return CompletableFuture.completedFuture(c);
        }
        CompletableFuture<RedissonInternals.Connection> f = runner.transport().connect(master).thenApply(made -> {
            synchronized (this) {
                if (runner.closed()) {
                    made.close();
                    throw new RedisConnectionException("the governor store is runner.closed()");
                }
                conn = made;
            }
            return made;
        });
        connecting = f;
        return f;
    }

    /**
     * Runs on the connection's event loop: everything queued goes out, at most {@code runner.maxBatch()} commands a
     * write; admissions and outcomes next to each other (of one hash tag on a runner.cluster()) become one batch.
     */
    private void flush() {
        scheduled.set(false);
        if (inFlight.get() >= ScriptRunner.IN_FLIGHT) {
            return; // the answer to come flushes
        }
        RedissonInternals.Connection c = conn;
        if (c == null) {
            // dropped meanwhile: connect again and flush then
            if (!queue.isEmpty() && scheduled.compareAndSet(false, true)) {
                connect().whenComplete((x, e) -> {
                    if (e != null) {
                        failQueued(e);
                    } else {
                        x.execute(this::flush);
                    }
                });
            }
            return;
        }
        RedissonInternals.Write out = c.write();
        List<ScriptRunner.Call> run = new ArrayList<>();
        Object item;
        while ((item = queue.poll()) != null) {
            ScriptRunner.Call call = item instanceof ScriptRunner.Call ? (ScriptRunner.Call) item : null;
            if (call != null && call.batchable()) {
                if (!run.isEmpty() && (run.size() >= Math.min(ScriptRunner.BATCH_CALLS, runner.maxBatch())
                        || (runner.cluster() && !Arrays.equals(run.get(0).tag, call.tag)))) {
                    add(out, run);
                    run = new ArrayList<>();
                }
                run.add(call);
            } else {
                if (!run.isEmpty()) {
                    add(out, run);
                    run = new ArrayList<>();
                }
                if (call != null) {
                    add(out, call);
                } else {
                    ((Plain) item).addTo(out);
                }
            }
            if (out.size() >= runner.maxBatch()) {
                write(out, false);
                out = c.write();
            }
        }
        if (!run.isEmpty()) {
            add(out, run);
        }
        if (out.size() > 0) {
            write(out, true);
        }
    }

    /** One call as a command of its own. */
    private void add(RedissonInternals.Write out, ScriptRunner.Call call) {
        CompletableFuture<Object> reply = new CompletableFuture<>();
        reply.whenComplete((v, e) -> runner.settle(this, call, v, e));
        boolean fn = runner.functions();
        out.script(fn, call.params(fn), reply);
    }

    /** Admissions and outcomes as one run of the batch script (a single one goes as itself). */
    private void add(RedissonInternals.Write out, List<ScriptRunner.Call> run) {
        if (run.size() == 1) {
            add(out, run.get(0));
            return;
        }
        int keys = 0;
        int args = 0;
        byte[] kinds = new byte[run.size()];
        for (int i = 0; i < run.size(); i++) {
            ScriptRunner.Call c = run.get(i);
            keys += c.keys.length;
            args += c.args.length;
            kinds[i] = ScriptArgs.Batch.kind(c.script);
        }
        runner.batchSent();
        boolean fn = runner.functions();
        Object[] p = new Object[2 + keys + ScriptArgs.Batch.Argv.COUNT + args];
        p[0] = fn ? Script.BATCH.function() : Script.BATCH.shaBytes;
        p[1] = ScriptRunner.NUMBERS[keys];
        int k = 2;
        int a = 2 + keys;
        p[a + ScriptArgs.Batch.Argv.KINDS] = kinds;
        a += ScriptArgs.Batch.Argv.COUNT;
        for (ScriptRunner.Call c : run) {
            System.arraycopy(c.keys, 0, p, k, c.keys.length);
            k += c.keys.length;
            System.arraycopy(c.args, 0, p, a, c.args.length);
            a += c.args.length;
        }
        CompletableFuture<Object> reply = new CompletableFuture<>();
        reply.whenComplete((v, e) -> {
            if (e != null) {
                // the run did not happen (NOSCRIPT, MOVED: each call retries as itself) or its fate is
                // unknown (a lost connection: each call fails)
                for (ScriptRunner.Call c : run) {
                    runner.settle(this, c, null, e);
                }
                return;
            }
            List<?> replies = (List<?>) v;
            for (int i = 0; i < run.size(); i++) {
                Object r = replies.get(i);
                if (r instanceof String && ((String) r).startsWith(ScriptRunner.CALL_ERROR)) {
                    run.get(i).result.completeExceptionally(new RedisException("Error running script (batched "
                            + run.get(i).script + "): " + ((String) r).substring(ScriptRunner.CALL_ERROR.length())));
                } else {
                    run.get(i).result.complete(r);
                }
            }
        });
        out.script(fn, p, reply);
    }

    /**
     * Sends one pipelined write; the last write of a flush counts as in flight until its last answer (the
     * answers come in order), which then flushes what queued meanwhile.
     */
    private void write(RedissonInternals.Write out, boolean last) {
        if (last) {
            int gen = generation;
            inFlight.incrementAndGet();
            out.lastReply().whenComplete((v, e) -> answered(gen));
        }
        out.send();
    }

    /** The last answer of a flush came (or its write failed): flush what queued meanwhile. */
    private void answered(int gen) {
        if (gen == generation) {
            inFlight.decrementAndGet();
        }
        kick();
    }

    /** A new connection (or none): the old one's writes no longer hold the lane back. */
    private void forgetInFlight() {
        generation++;
        inFlight.set(0);
    }

    private void failQueued(Throwable e) {
        scheduled.set(false);
        Object item;
        while ((item = queue.poll()) != null) {
            if (item instanceof ScriptRunner.Call) {
                ((ScriptRunner.Call) item).result.completeExceptionally(e);
            } else {
                ((Plain) item).reply().completeExceptionally(e);
            }
        }
    }

    /** Loads every script on this lane's node (after NOSCRIPT); concurrent callers share one reload. */
    synchronized CompletableFuture<Void> reload() {
        if (reloading != null && !reloading.isDone()) {
            return reloading;
        }
        List<CompletableFuture<Object>> loads = new ArrayList<>();
        for (Script s : Script.values()) {
            CompletableFuture<Object> f = new CompletableFuture<>();
            submit(new Plain(s.text, f));
            loads.add(f);
        }
        reloading = CompletableFuture.allOf(loads.toArray(new CompletableFuture[0]));
        return reloading;
    }

    /** Closes the connection (what it waits for fails); the next script connects again. */
    void drop() {
        RedissonInternals.Connection c;
        synchronized (this) {
            c = conn;
            conn = null;
            forgetInFlight();
        }
        if (c != null) {
            c.close();
        }
        kick();
    }
}
