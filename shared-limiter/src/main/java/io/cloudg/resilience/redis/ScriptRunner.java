package io.cloudg.resilience.redis;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
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
 * the client, not Redis, was the bottleneck. Here a node has {@link Lane}s ({@code lanesPerNode}, two by default),
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
    static final String CALL_ERROR = "CLOUDG_CALL_ERROR ";
    static final byte[][] NUMBERS = new byte[BATCH_CALLS * 4 + 1][];

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
    static final class Call {
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

    /** PING on the lane of {@code key}: whether the connection scripts use works. */
    CompletableFuture<Object> ping(Object key) {
        CompletableFuture<Object> f = new CompletableFuture<>();
        try {
            lane(bytes(key)).submit(new Lane.Plain(null, f));
        } catch (RuntimeException e) {
            f.completeExceptionally(e);
        }
        return f;
    }

    /**
     * Completes once every script queued or sent so far on a lane has been answered: a PING behind them on each
     * lane with work left (a lane answers in order). {@code close()} waits on it, so that outcomes queued without
     * waiting (a throttle's halving, a success's refill) reach Redis before the connections go.
     */
    CompletableFuture<Void> drain() {
        List<CompletableFuture<Object>> pings = new ArrayList<>();
        for (Lane[] ls : lanes.values()) {
            for (Lane l : ls) {
                if (l.busy()) {
                    CompletableFuture<Object> f = new CompletableFuture<>();
                    l.submit(new Lane.Plain(null, f));
                    pings.add(f);
                }
            }
        }
        return CompletableFuture.allOf(pings.toArray(CompletableFuture[]::new));
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

    // what the lanes read of their runner

    RedissonInternals.Transport transport() {
        return transport;
    }

    boolean cluster() {
        return cluster;
    }

    int maxBatch() {
        return maxBatch;
    }

    boolean held() {
        return held;
    }

    boolean closed() {
        return closed;
    }

    /** Counts a run of the batch script. */
    void batchSent() {
        batches.incrementAndGet();
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
                n += l.queued();
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
                    made[i] = new Lane(this, e);
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
    void settle(Lane lane, Call c, Object v, Throwable e) {
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
}
