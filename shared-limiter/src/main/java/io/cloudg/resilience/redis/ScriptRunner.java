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
import org.redisson.Redisson;
import org.redisson.api.RScript;
import org.redisson.api.RedissonClient;
import org.redisson.client.RedisClient;
import org.redisson.client.RedisConnection;
import org.redisson.client.RedisConnectionException;
import org.redisson.client.RedisRedirectException;
import org.redisson.client.codec.StringCodec;
import org.redisson.client.protocol.CommandData;
import org.redisson.client.protocol.CommandsData;
import org.redisson.client.protocol.RedisCommand;
import org.redisson.client.protocol.RedisCommands;
import org.redisson.client.protocol.decoder.ObjectListReplayDecoder;
import org.redisson.command.CommandAsyncExecutor;
import org.redisson.connection.ConnectionManager;
import org.redisson.connection.MasterSlaveEntry;

/**
 * Runs the governor's scripts by SHA ({@code EVALSHA}) over one dedicated, pipelined connection per master
 * node, and reloads them on {@code NOSCRIPT} (a restart or failover emptied the script cache).
 *
 * <p><b>Why connections of its own.</b> Redisson's ordinary path lends each command a pooled connection
 * for its whole round trip, with a timeout scheduled and a future chain per command; under many callers
 * the client, not Redis, was the bottleneck. Here a node has a few lanes ({@code lanesPerNode}), each a
 * queue and a dedicated connection; a script goes to the lane of its key's hash tag (its provider x
 * account). The lane's netty event loop drains the queue into one write (at most {@code maxBatch} scripts
 * each) and the replies complete each caller's future in order. Under load many scripts share a write and a
 * read on both ends; when idle a script goes out alone at once, so pipelining adds no latency. Several lanes
 * spread the encoding and decoding over several event loops. Each script still runs atomically on the
 * server; a pipelined write is not a transaction and needs none.
 *
 * <p><b>Order.</b> The scripts of one hash tag (everything of one provider x account: its leaves, account
 * bucket and bulkhead) share a lane, so they are written, and run, in the order they were queued: whatever
 * a caller queued before another caller queued its script (for instance an outcome, then the next admission
 * of the same leaf, or a slot release, then an acquisition) has run by the time that script runs. The
 * exception is a script answered {@code NOSCRIPT} and sent again after the reload, which runs after scripts
 * queued meanwhile that found their script loaded by someone else.
 *
 * <p><b>Topology.</b> The lane of a key is the master Redisson's connection manager names for its slot
 * (standalone and Sentinel: the one master; Cluster: the slot's master). A lane notices a new master
 * (failover) on its next write and reconnects; a MOVED or ASK answer (resharding) sends that script through
 * Redisson's ordinary path, which follows redirects. Redisson's connection watchdog reconnects a dropped
 * connection; while it is down every script fails at once (the store then counts as unreachable).
 */
final class ScriptRunner implements AutoCloseable {
    @SuppressWarnings({"rawtypes", "unchecked"})
    static final RedisCommand<Object> EVALSHA = new RedisCommand("EVALSHA", new ObjectListReplayDecoder());
    private static final byte[][] NUM_KEYS = new byte[8][];

    static {
        for (int i = 0; i < NUM_KEYS.length; i++) {
            NUM_KEYS[i] = Integer.toString(i).getBytes(StandardCharsets.US_ASCII);
        }
    }

    private final RedissonClient client;
    private final CommandAsyncExecutor executor;
    private final ConnectionManager connections;
    private final boolean cluster;
    private final int maxBatch;
    private final int lanesPerNode;
    private final ConcurrentHashMap<MasterSlaveEntry, Lane[]> lanes = new ConcurrentHashMap<>();
    private volatile Lane[] single;
    private volatile boolean closed;

    ScriptRunner(RedissonClient client, int maxBatch, int lanesPerNode) {
        if (!(client instanceof Redisson)) {
            throw new IllegalArgumentException("the Redis governor store needs a Redisson client (org.redisson.Redisson),"
                    + " but was " + client.getClass().getName());
        }
        this.client = client;
        this.executor = ((Redisson) client).getCommandExecutor();
        this.connections = executor.getConnectionManager();
        this.cluster = ((Redisson) client).getConfig().isClusterConfig();
        this.maxBatch = Math.max(1, maxBatch);
        this.lanesPerNode = Math.max(1, lanesPerNode);
    }

    /** Loads every script on every master (startup); failures are left to the NOSCRIPT path. */
    void loadAll() {
        RScript scripts = client.getScript(StringCodec.INSTANCE);
        for (Script s : Script.values()) {
            String sha = scripts.scriptLoad(s.text);
            if (!sha.equalsIgnoreCase(s.sha)) {
                throw new IllegalStateException("Redis computed SHA " + sha + " for " + s + ", expected " + s.sha);
            }
        }
    }

    /**
     * Runs {@code script} on the node of {@code keys[0]}; the future holds a {@code List} (table reply), a
     * {@code Long} (integer reply) or a {@code String}. Keys and arguments are {@code byte[]} (sent as they
     * are) or {@code String} (sent as UTF-8).
     */
    CompletableFuture<Object> call(Script script, Object[] keys, Object... args) {
        Object[] params = new Object[2 + keys.length + args.length];
        params[0] = script.shaBytes;
        params[1] = NUM_KEYS[keys.length];
        System.arraycopy(keys, 0, params, 2, keys.length);
        System.arraycopy(args, 0, params, 2 + keys.length, args.length);
        CompletableFuture<Object> result = new CompletableFuture<>();
        Lane lane;
        try {
            lane = lane(keys[0]);
        } catch (RuntimeException e) {
            result.completeExceptionally(e);
            return result;
        }
        send(lane, script, keys, params, result, true);
        return result;
    }

    /** PING on the lane of {@code key}: whether the connection scripts use works. */
    CompletableFuture<Object> ping(Object key) {
        CompletableFuture<Object> f = new CompletableFuture<>();
        try {
            lane(key).submit(new CommandData<>(f, StringCodec.INSTANCE, RedisCommands.PING, new Object[0]));
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

    private Lane lane(Object key) {
        byte[] k = key instanceof byte[] ? (byte[]) key : ((String) key).getBytes(StandardCharsets.UTF_8);
        Lane[] ls = single;
        if (ls == null) {
            int slot = connections.calcSlot(k);
            MasterSlaveEntry entry = connections.getWriteEntry(slot);
            if (entry == null) {
                throw new RedisConnectionException("no Redis master serves slot " + slot);
            }
            ls = lanes.computeIfAbsent(entry, e -> {
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
        return ls.length == 1 ? ls[0] : ls[Math.floorMod(tagHash(k), ls.length)];
    }

    /** A hash of the key's hash tag (the part in braces, else the whole key): one tag, one lane. */
    static int tagHash(byte[] k) {
        int from = 0;
        int to = k.length;
        for (int i = 0; i < k.length; i++) {
            if (k[i] == '{') {
                for (int j = i + 1; j < k.length; j++) {
                    if (k[j] == '}') {
                        if (j > i + 1) {
                            from = i + 1;
                            to = j;
                        }
                        break;
                    }
                }
                break;
            }
        }
        int h = 1;
        for (int i = from; i < to; i++) {
            h = 31 * h + k[i];
        }
        return h ^ (h >>> 16);
    }

    private void send(Lane lane, Script script, Object[] keys, Object[] params, CompletableFuture<Object> result,
                      boolean retry) {
        CompletableFuture<Object> reply = new CompletableFuture<>();
        reply.whenComplete((v, e) -> {
            if (e == null) {
                result.complete(v);
            } else if (retry && RedisErrors.isNoScript(e)) {
                lane.reload().whenComplete((x, le) -> {
                    if (le != null) {
                        result.completeExceptionally(le);
                    } else {
                        send(lane, script, keys, params, result, false);
                    }
                });
            } else if (e instanceof RedisRedirectException) {
                redirected(script, keys, params, result, retry);
            } else {
                result.completeExceptionally(e);
            }
        });
        lane.submit(new CommandData<>(reply, StringCodec.INSTANCE, EVALSHA, params));
    }

    /** A script answered MOVED or ASK: Redisson's ordinary path follows the redirect. */
    private void redirected(Script script, Object[] keys, Object[] params, CompletableFuture<Object> result,
                            boolean retry) {
        Object[] args = Arrays.copyOfRange(params, 2 + keys.length, params.length);
        String key = keys[0] instanceof byte[] ? new String((byte[]) keys[0], StandardCharsets.UTF_8) : (String) keys[0];
        executor.evalWriteAsync(key, StringCodec.INSTANCE, EVALSHA, script.sha, Arrays.asList(keys), args)
                .whenComplete((v, e) -> {
                    if (e == null) {
                        result.complete(v);
                    } else if (retry && RedisErrors.isNoScript(e)) {
                        client.getScript(StringCodec.INSTANCE).scriptLoadAsync(script.text).whenComplete((x, le) -> {
                            if (le != null) {
                                result.completeExceptionally(le);
                            } else {
                                redirected(script, keys, params, result, false);
                            }
                        });
                    } else {
                        result.completeExceptionally(e);
                    }
                });
    }

    /** The queue and the dedicated connection of one master. */
    private final class Lane {
        private final MasterSlaveEntry entry;
        private final Queue<CommandData<?, ?>> queue = new ConcurrentLinkedQueue<>();
        private final AtomicBoolean scheduled = new AtomicBoolean();
        private volatile RedisConnection conn;
        private CompletableFuture<RedisConnection> connecting;
        private CompletableFuture<Void> reloading;

        Lane(MasterSlaveEntry entry) {
            this.entry = entry;
        }

        void submit(CommandData<?, ?> command) {
            queue.add(command);
            if (!scheduled.compareAndSet(false, true)) {
                return; // a flush is on its way and will take this one
            }
            RedisConnection c = current();
            if (c != null) {
                c.getChannel().eventLoop().execute(this::flush);
                return;
            }
            connect().whenComplete((x, e) -> {
                if (e != null) {
                    failQueued(e);
                } else {
                    x.getChannel().eventLoop().execute(this::flush);
                }
            });
        }

        /** The connection to use, or null when one must be made (none yet, closed, or the master changed). */
        private RedisConnection current() {
            RedisConnection c = conn;
            if (c == null) {
                return null;
            }
            RedisClient master = entry.getClient();
            if (c.isClosed() || (master != null && master != c.getRedisClient())) {
                synchronized (this) {
                    if (conn == c) {
                        conn = null;
                    }
                }
                c.closeAsync();
                return null;
            }
            return c;
        }

        private synchronized CompletableFuture<RedisConnection> connect() {
            if (closed) {
                return CompletableFuture.failedFuture(new RedisConnectionException("the governor store is closed"));
            }
            if (connecting != null && !connecting.isDone()) {
                return connecting;
            }
            RedisConnection c = conn;
            if (c != null && !c.isClosed()) {
                return CompletableFuture.completedFuture(c);
            }
            RedisClient master = entry.getClient();
            if (master == null) {
                return CompletableFuture.failedFuture(new RedisConnectionException("no Redis master is known yet"));
            }
            CompletableFuture<RedisConnection> f = master.connectAsync().toCompletableFuture().thenApply(made -> {
                synchronized (this) {
                    if (closed) {
                        made.closeAsync();
                        throw new RedisConnectionException("the governor store is closed");
                    }
                    conn = made;
                }
                return made;
            });
            connecting = f;
            return f;
        }

        /** Runs on the connection's event loop: everything queued goes out, {@code maxBatch} scripts a write. */
        private void flush() {
            scheduled.set(false);
            RedisConnection c = conn;
            if (c == null) {
                // dropped meanwhile: connect again and flush then
                if (!queue.isEmpty() && scheduled.compareAndSet(false, true)) {
                    connect().whenComplete((x, e) -> {
                        if (e != null) {
                            failQueued(e);
                        } else {
                            x.getChannel().eventLoop().execute(this::flush);
                        }
                    });
                }
                return;
            }
            List<CommandData<?, ?>> batch = null;
            CommandData<?, ?> cmd;
            while ((cmd = queue.poll()) != null) {
                if (batch == null) {
                    batch = new ArrayList<>(Math.min(maxBatch, 64));
                }
                batch.add(cmd);
                if (batch.size() >= maxBatch) {
                    write(c, batch);
                    batch = null;
                }
            }
            if (batch != null) {
                write(c, batch);
            }
        }

        private void write(RedisConnection c, List<CommandData<?, ?>> batch) {
            io.netty.channel.ChannelFuture f = batch.size() == 1 ? c.send(batch.get(0))
                    : c.send(new CommandsData(new CompletableFuture<>(), batch, false, false));
            f.addListener(w -> {
                if (!w.isSuccess()) {
                    for (CommandData<?, ?> d : batch) {
                        d.tryFailure(w.cause());
                    }
                }
            });
        }

        private void failQueued(Throwable e) {
            scheduled.set(false);
            CommandData<?, ?> cmd;
            while ((cmd = queue.poll()) != null) {
                cmd.tryFailure(e);
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
                submit(new CommandData<>(f, StringCodec.INSTANCE, RedisCommands.SCRIPT_LOAD, new Object[] {s.text}));
                loads.add(f);
            }
            reloading = CompletableFuture.allOf(loads.toArray(new CompletableFuture[0]));
            return reloading;
        }

        /** Closes the connection (what it waits for fails); the next script connects again. */
        void drop() {
            RedisConnection c;
            synchronized (this) {
                c = conn;
                conn = null;
            }
            if (c != null) {
                c.closeAsync();
            }
        }
    }
}
