package io.cloudg.resilience.redis;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import org.redisson.api.RScript;
import org.redisson.api.RedissonClient;
import org.redisson.client.RedisConnectionException;
import org.redisson.client.RedisException;
import org.redisson.client.RedisRedirectException;
import org.redisson.client.codec.StringCodec;

/**
 * Runs the governor's scripts by SHA ({@code EVALSHA}) over dedicated, pipelined connections, and reloads them
 * on {@code NOSCRIPT} (a restart or failover emptied the script cache).
 *
 * <p><b>Why connections of its own.</b> Redisson's ordinary path lends each command a pooled connection
 * for its whole round trip, with a timeout scheduled and a future chain per command; under many callers
 * the client, not Redis, was the bottleneck. Here a node has lanes ({@code lanesPerNode}, two by default),
 * each a queue and a dedicated connection; a script goes to the lane of its key's hash tag (its provider x
 * account), so that one lane's turn-around (reading, decoding and completing replies, encoding the next
 * flush) overlaps the other's run in Redis. The lane's netty event loop drains the queue into one write (at
 * most {@code maxBatch} commands each) and the replies complete each caller's future in order. Under load
 * many scripts share a write and a read on both ends; when idle a script goes out alone at once, so pipelining adds no latency. At most
 * {@link #IN_FLIGHT} flushes of a lane await their answers: what queues meanwhile goes out together when an
 * answer comes, so batches grow with the round trip instead of each caller's script riding in a small
 * write of its own.
 *
 * <p><b>Batches.</b> Admissions, outcomes and deferred releases that a drain finds next to each other in the queue (of one hash
 * tag when the server is a cluster) go out as one run of the batch script ({@code batch} in {@code cloudg.lua}) (at most {@link #BATCH_CALLS}
 * calls, and none when {@code maxBatch} is 1): the same work as one admit or record run each, in the same order, but the
 * per-run costs (the command, the script call, {@code TIME}) are paid once. All calls of a run see the same
 * server time. A call that raises an error fails alone; the others still run.
 *
 * <p><b>Order.</b> The scripts of one hash tag (everything of one provider x account: its leaves, account
 * bucket and bulkhead) share a lane, so they are written, and run, in the order they were queued: whatever
 * a caller queued before another caller queued its script (for instance an outcome, then the next admission
 * of the same leaf, or a slot release, then an acquisition) has run by the time that script runs. The
 * exception is a script answered {@code NOSCRIPT} and sent again after the reload, which runs after scripts
 * queued meanwhile that found their script loaded by someone else.
 *
 * <p><b>Topology.</b> The lane of a key belongs to the master Redisson's connection manager names for its
 * slot (standalone and Sentinel: the one master; Cluster: the slot's master). A lane notices a new master
 * (failover) on its next write and reconnects; a MOVED or ASK answer (resharding) sends that script through
 * Redisson's ordinary path, which follows redirects. Redisson's connection watchdog reconnects a dropped
 * connection; while it is down every script fails at once (the store then counts as unreachable).
 *
 * <p><b>Redisson internals.</b> The dedicated connections, the master of a slot and the command objects are
 * Redisson's, outside its public API; this class sees them only through {@link RedissonInternals}'s
 * {@code Transport}, {@code Connection} and {@code Write}, the one class that touches them (it lists every
 * member used, says why, and refuses a Redisson that lacks one; its test pins the verified version and fails
 * if any other class references an internal).
 */
final class ScriptRunner implements AutoCloseable {
    /** The most calls one run of the batch script carries (it blocks the server meanwhile: keep it short). */
    static final int BATCH_CALLS = 32;
    /**
     * Flushes of a lane whose answers are awaited at once. While they are out, what callers queue waits for
     * the first answer and then goes out together: under load the batches grow with the round trip (fewer,
     * longer script runs, fewer writes and reads on both ends), while a second flush keeps Redis busy during
     * the client's turn-around; an idle lane still sends a call at once.
     */
    static final int IN_FLIGHT = 2;
    private static final String CALL_ERROR = "CLOUDG_CALL_ERROR ";
    private static final byte[][] NUMBERS = new byte[BATCH_CALLS * 4 + 1][];

    static {
        for (int i = 0; i < NUMBERS.length; i++) {
            NUMBERS[i] = Integer.toString(i).getBytes(StandardCharsets.US_ASCII);
        }
    }

    private final RedissonClient client;
    private final RedissonInternals.Transport transport;
    private final boolean cluster;
    private final int maxBatch;
    private final int lanesPerNode;
    /** The lanes of each master ({@link RedissonInternals.Transport#master}'s handle). */
    private final ConcurrentHashMap<Object, Lane[]> lanes = new ConcurrentHashMap<>();
    private volatile Lane[] single;
    private volatile boolean closed;
    private volatile boolean held;
    /** Whether the scripts run as the function library ({@code FCALL}, Redis 7) rather than by {@code EVALSHA}. */
    private volatile boolean functions;
    private CompletableFuture<Void> loadingFunctions;
    private final java.util.concurrent.atomic.AtomicLong batches = new java.util.concurrent.atomic.AtomicLong();
    /** Times a server answered that it had lost the scripts or the library: a restart, a failover, a flush. */
    private final java.util.concurrent.atomic.AtomicLong scriptsLost = new java.util.concurrent.atomic.AtomicLong();
    private final java.util.concurrent.atomic.AtomicLong calls = new java.util.concurrent.atomic.AtomicLong();

    ScriptRunner(RedissonClient client, int maxBatch, int lanesPerNode) {
        this.transport = RedissonInternals.transport(client);
        this.client = client;
        this.cluster = client.getConfig().isClusterConfig();
        this.maxBatch = Math.max(1, maxBatch);
        this.lanesPerNode = Math.max(1, lanesPerNode);
    }

    /**
     * Loads the function library on every master (Redis 7 and later: from then on scripts are called with
     * {@code FCALL}), and every script (the {@code EVALSHA} path, used when the server has no functions and for
     * redirected calls) (startup); failures are left to the NOSCRIPT path. A server that refuses the
     * {@code FUNCTION} command (Redis 6) is called by {@code EVALSHA} only.
     */
    void loadAll() {
        try {
            client.getFunction().loadAndReplace(Script.Functions.LIBRARY, Script.Functions.CODE);
            functions = true;
        } catch (RedisConnectionException | org.redisson.client.RedisTimeoutException e) {
            throw e;
        } catch (RedisException e) {
            // Redis 6 (unknown command), or a user not allowed FUNCTION: the EVALSHA path
        }
        RScript scripts = client.getScript(StringCodec.INSTANCE);
        for (Script s : Script.values()) {
            String sha = scripts.scriptLoad(s.text);
            if (!sha.equalsIgnoreCase(s.sha)) {
                throw new IllegalStateException("Redis computed SHA " + sha + " for " + s + ", expected " + s.sha);
            }
        }
    }

    /** One script call in a lane's queue, with its caller's future. */
    private static final class Call {
        final Script script;
        final Object[] keys;
        final Object[] args;
        final byte[] tag;
        final CompletableFuture<Object> result = new CompletableFuture<>();
        boolean retry = true;

        Call(Script script, Object[] keys, Object[] args, byte[] tag) {
            this.script = script;
            this.keys = keys;
            this.args = args;
            this.tag = tag;
        }

        boolean batchable() {
            return script == Script.ADMIT || script == Script.RECORD || script == Script.FREE;
        }

        Object[] params(boolean functions) {
            Object[] p = new Object[2 + keys.length + args.length];
            p[0] = functions ? script.function() : script.shaBytes;
            p[1] = NUMBERS[keys.length];
            System.arraycopy(keys, 0, p, 2, keys.length);
            System.arraycopy(args, 0, p, 2 + keys.length, args.length);
            return p;
        }
    }

    /**
     * Runs {@code script} on the node of {@code keys[0]}; the future holds a {@code List} (table reply), a
     * {@code Long} (integer reply) or a {@code String}. Keys and arguments are {@code byte[]} (sent as they
     * are) or {@code String} (sent as UTF-8), laid out as {@link ScriptArgs} says (cloudg.lua's batch relies
     * on ADMIT's, RECORD's and FREE's counts).
     */
    CompletableFuture<Object> call(Script script, Object[] keys, Object... args) {
        calls.incrementAndGet();
        byte[] key = bytes(keys[0]);
        Call c = new Call(script, keys, args, cluster ? tag(key) : null);
        try {
            lane(key).submit(c);
        } catch (RuntimeException e) {
            c.result.completeExceptionally(e);
        }
        return c.result;
    }

    /** A command other than a script in a lane's queue: PING, or SCRIPT LOAD of {@code text}. */
    private record Plain(String scriptLoad, CompletableFuture<Object> reply) {
        void addTo(RedissonInternals.Write w) {
            if (scriptLoad == null) {
                w.ping(reply);
            } else {
                w.scriptLoad(scriptLoad, reply);
            }
        }
    }

    /** PING on the lane of {@code key}: whether the connection scripts use works. */
    CompletableFuture<Object> ping(Object key) {
        CompletableFuture<Object> f = new CompletableFuture<>();
        try {
            lane(bytes(key)).submit(new Plain(null, f));
        } catch (RuntimeException e) {
            f.completeExceptionally(e);
        }
        return f;
    }

    /**
     * A reply did not come in time: drops every lane's connection (failing what it still waits for), so
     * that the next script connects afresh instead of queueing behind a stuck one.
     */
    void reset() {
        for (Lane[] ls : lanes.values()) {
            for (Lane l : ls) {
                l.drop();
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        reset();
    }

    /**
     * TEST ONLY: while held, lanes queue scripts without sending them; releasing sends what was queued
     * (as batches), so that a test can make a batch of known calls.
     */
    void hold(boolean hold) {
        held = hold;
        if (!hold) {
            for (Lane[] ls : lanes.values()) {
                for (Lane l : ls) {
                    l.kick();
                }
            }
        }
    }

    /** Whether scripts are called as functions ({@code FCALL}) (tests, diagnostics). */
    boolean functions() {
        return functions;
    }

    /** Runs of the batch script sent so far (tests, diagnostics). */
    long batches() {
        return batches.get();
    }

    /** Script calls queued so far (tests, diagnostics). */
    long calls() {
        return calls.get();
    }

    /** TEST ONLY: the scripts queued and not yet sent, over every lane. */
    int queued() {
        int n = 0;
        for (Lane[] ls : lanes.values()) {
            for (Lane l : ls) {
                n += l.queue.size();
            }
        }
        return n;
    }

    private static byte[] bytes(Object key) {
        return key instanceof byte[] ? (byte[]) key : ((String) key).getBytes(StandardCharsets.UTF_8);
    }

    private Lane lane(byte[] key) {
        Lane[] ls = single;
        if (ls == null) {
            Object master = transport.master(key);
            ls = lanes.computeIfAbsent(master, e -> {
                Lane[] made = new Lane[lanesPerNode];
                for (int i = 0; i < made.length; i++) {
                    made[i] = new Lane(e);
                }
                return made;
            });
            if (!cluster) {
                single = ls;
            }
        }
        return ls.length == 1 ? ls[0] : ls[Math.floorMod(Arrays.hashCode(tag(key)), ls.length)];
    }

    /** The key's hash tag (the part in braces, else the whole key), as Redis Cluster finds it. */
    static byte[] tag(byte[] k) {
        for (int i = 0; i < k.length; i++) {
            if (k[i] == '{') {
                for (int j = i + 1; j < k.length; j++) {
                    if (k[j] == '}') {
                        return j > i + 1 ? Arrays.copyOfRange(k, i + 1, j) : k;
                    }
                }
                return k;
            }
        }
        return k;
    }

    /** The reply (or failure) of one call: retries NOSCRIPT once after a reload, follows redirects. */
    private void settle(Lane lane, Call c, Object v, Throwable e) {
        if (e == null) {
            c.result.complete(v);
        } else if (c.retry && RedisErrors.isNoFunction(e)) {
            // the library is gone (a restart, a failover, FUNCTION FLUSH): load it again and resend
            c.retry = false;
            scriptsLost.incrementAndGet();
            reloadFunctions().whenComplete((x, le) -> {
                if (le != null) {
                    c.result.completeExceptionally(le);
                } else {
                    lane.submit(c);
                }
            });
        } else if (c.retry && RedisErrors.isNoScript(e)) {
            c.retry = false;
            scriptsLost.incrementAndGet();
            lane.reload().whenComplete((x, le) -> {
                if (le != null) {
                    c.result.completeExceptionally(le);
                } else {
                    lane.submit(c);
                }
            });
        } else if (e instanceof RedisRedirectException) {
            redirected(c);
        } else {
            c.result.completeExceptionally(e);
        }
    }

    /**
     * How many times a server answered that it had lost the scripts or the function library (it restarted,
     * failed over or was flushed, so it may have lost keys too).
     */
    long scriptsLost() {
        return scriptsLost.get();
    }

    /** Loads the function library on every master again; concurrent callers share one load. */
    private synchronized CompletableFuture<Void> reloadFunctions() {
        if (loadingFunctions != null && !loadingFunctions.isDone()) {
            return loadingFunctions;
        }
        loadingFunctions = client.getFunction().loadAndReplaceAsync(Script.Functions.LIBRARY, Script.Functions.CODE)
                .toCompletableFuture();
        return loadingFunctions;
    }

    /** A script answered MOVED or ASK: Redisson's ordinary path follows the redirect. */
    private void redirected(Call c) {
        byte[] key = bytes(c.keys[0]);
        transport.evalRedirected(new String(key, StandardCharsets.UTF_8), c.script.sha, Arrays.asList(c.keys), c.args)
                .whenComplete((v, e) -> {
                    if (e == null) {
                        c.result.complete(v);
                    } else if (c.retry && RedisErrors.isNoScript(e)) {
                        c.retry = false;
                        client.getScript(StringCodec.INSTANCE).scriptLoadAsync(c.script.text).whenComplete((x, le) -> {
                            if (le != null) {
                                c.result.completeExceptionally(le);
                            } else {
                                redirected(c);
                            }
                        });
                    } else {
                        c.result.completeExceptionally(e);
                    }
                });
    }

    /** The queue and the dedicated connection of one master. */
    private final class Lane {
        private final Object master;
        /** {@link Call}s and {@link Plain} commands (PING, SCRIPT LOAD). */
        private final Queue<Object> queue = new ConcurrentLinkedQueue<>();
        private final AtomicBoolean scheduled = new AtomicBoolean();
        /** Writes sent on the current connection and not yet answered in full (at most {@link #IN_FLIGHT}). */
        private final java.util.concurrent.atomic.AtomicInteger inFlight = new java.util.concurrent.atomic.AtomicInteger();
        /** Bumped when the connection is dropped or replaced: answers to older writes no longer count. */
        private volatile int generation;
        private volatile RedissonInternals.Connection conn;
        private CompletableFuture<RedissonInternals.Connection> connecting;
        private CompletableFuture<Void> reloading;

        Lane(Object master) {
            this.master = master;
        }

        void submit(Object item) {
            queue.add(item);
            kick();
        }

        /**
         * Makes sure a flush is on its way (unless held by a test, or {@link #IN_FLIGHT} writes wait for their
         * answers: the last answer to come flushes what queued meanwhile).
         */
        void kick() {
            if (held || queue.isEmpty() || inFlight.get() >= IN_FLIGHT || !scheduled.compareAndSet(false, true)) {
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

        /** The connection to use, or null when one must be made (none yet, closed, or the master changed). */
        private RedissonInternals.Connection current() {
            RedissonInternals.Connection c = conn;
            if (c == null) {
                return null;
            }
            if (c.isClosed() || !transport.serves(master, c)) {
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
            if (closed) {
                return CompletableFuture.failedFuture(new RedisConnectionException("the governor store is closed"));
            }
            if (connecting != null && !connecting.isDone()) {
                return connecting;
            }
            RedissonInternals.Connection c = conn;
            if (c != null && !c.isClosed()) {
                return CompletableFuture.completedFuture(c);
            }
            CompletableFuture<RedissonInternals.Connection> f = transport.connect(master).thenApply(made -> {
                synchronized (this) {
                    if (closed) {
                        made.close();
                        throw new RedisConnectionException("the governor store is closed");
                    }
                    conn = made;
                }
                return made;
            });
            connecting = f;
            return f;
        }

        /**
         * Runs on the connection's event loop: everything queued goes out, at most {@code maxBatch} commands a
         * write; admissions and outcomes next to each other (of one hash tag on a cluster) become one batch.
         */
        private void flush() {
            scheduled.set(false);
            if (inFlight.get() >= IN_FLIGHT) {
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
            List<Call> run = new ArrayList<>();
            Object item;
            while ((item = queue.poll()) != null) {
                Call call = item instanceof Call ? (Call) item : null;
                if (call != null && call.batchable()) {
                    if (!run.isEmpty() && (run.size() >= Math.min(BATCH_CALLS, maxBatch)
                            || (cluster && !Arrays.equals(run.get(0).tag, call.tag)))) {
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
                if (out.size() >= maxBatch) {
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
        private void add(RedissonInternals.Write out, Call call) {
            CompletableFuture<Object> reply = new CompletableFuture<>();
            reply.whenComplete((v, e) -> settle(this, call, v, e));
            boolean fn = functions;
            out.script(fn, call.params(fn), reply);
        }

        /** Admissions and outcomes as one run of the batch script (a single one goes as itself). */
        private void add(RedissonInternals.Write out, List<Call> run) {
            if (run.size() == 1) {
                add(out, run.get(0));
                return;
            }
            int keys = 0;
            int args = 0;
            byte[] kinds = new byte[run.size()];
            for (int i = 0; i < run.size(); i++) {
                Call c = run.get(i);
                keys += c.keys.length;
                args += c.args.length;
                kinds[i] = ScriptArgs.Batch.kind(c.script);
            }
            batches.incrementAndGet();
            boolean fn = functions;
            Object[] p = new Object[2 + keys + ScriptArgs.Batch.Argv.COUNT + args];
            p[0] = fn ? Script.BATCH.function() : Script.BATCH.shaBytes;
            p[1] = NUMBERS[keys];
            int k = 2;
            int a = 2 + keys;
            p[a + ScriptArgs.Batch.Argv.KINDS] = kinds;
            a += ScriptArgs.Batch.Argv.COUNT;
            for (Call c : run) {
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
                    for (Call c : run) {
                        settle(this, c, null, e);
                    }
                    return;
                }
                List<?> replies = (List<?>) v;
                for (int i = 0; i < run.size(); i++) {
                    Object r = replies.get(i);
                    if (r instanceof String && ((String) r).startsWith(CALL_ERROR)) {
                        run.get(i).result.completeExceptionally(new RedisException("Error running script (batched "
                                + run.get(i).script + "): " + ((String) r).substring(CALL_ERROR.length())));
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
                if (item instanceof Call) {
                    ((Call) item).result.completeExceptionally(e);
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
}
