package io.cloudg.resilience.redis;

import io.netty.channel.ChannelFuture;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.resolver.dns.DnsAddressResolverGroup;
import io.netty.resolver.dns.DnsServerAddressStreamProviders;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.TrustManagerFactory;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.client.RedisClient;
import org.redisson.client.RedisClientConfig;
import org.redisson.client.RedisConnection;
import org.redisson.client.RedisConnectionException;
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
 * The fence around Redisson's internals: the only class of the governor that references a Redisson class
 * outside its public API ({@code org.redisson.api}, {@code org.redisson.config}, codecs, exceptions,
 * {@code Redisson.create}). It lists every member it uses ({@link #USED}), checks they are there, and gives
 * the rest of the backend what it needs of them as types of its own: {@link Transport}, {@link Connection}
 * and {@link Write} for {@link ScriptRunner}'s lanes, {@link #ping} for {@link RedisPreflight}.
 * {@code RedissonInternalsTest} fails when any other class references an internal.
 *
 * <p><b>Why internals at all.</b> {@link ScriptRunner} keeps dedicated connections per Redis master and
 * writes the scripts queued by many callers onto one as one pipelined write, in queue order. Redisson's
 * public API has no such thing: {@code RScript.evalShaAsync} lends each command a pooled connection for its
 * whole round trip, with a scheduled timeout and a future chain per command (about three times the client
 * CPU per governed call, measured: {@code BENCHMARKS.md}), and {@code RBatch} gives no order between two
 * batches on different pooled connections, which {@code recordAsync} relies on (an outcome, then the next
 * admission of the same leaf). So the runner borrows, from Redisson, the connection of the right master
 * (with the client's AUTH, ACL user, TLS, database and client name, and its failover and slot map) and the
 * command objects it writes; a MOVED or ASK answer goes through Redisson's ordinary redirect-following
 * path. The preflight uses Redisson's low-level client (one plain connection, no pool, no retries) so that
 * it speaks to Redis exactly as the store will (TLS, AUTH, SELECT). docs/redis-backend.md says why the
 * transport was not moved to another client.
 *
 * <p><b>What protects an upgrade.</b> {@link #verify()} runs when a store is built and before a preflight,
 * and refuses, naming every missing member and both versions, a Redisson without them (a dependency upgraded
 * elsewhere in an application would otherwise fail at the first call with a {@code NoSuchMethodError}, or not
 * at all and misbehave). {@code RedissonInternalsTest} fails when the Redisson on the build's classpath is not
 * {@link #VERIFIED_VERSION} (so an upgrade cannot go through without someone re-running the Redis contract
 * suites against standalone, Sentinel and Cluster servers and updating that constant), when a listed member
 * is missing, and when this class references a non-API Redisson class that is not listed here.
 */
final class RedissonInternals {
    /** The Redisson version whose internals the contract suites (standalone, Sentinel, Cluster) ran against. */
    static final String VERIFIED_VERSION = "3.52.0";

    /**
     * A class and a member of it used: a method or constructor ({@code <init>}) with its parameter types, or
     * a static field (upper case) with its type.
     */
    record Use(String type, String member, List<String> parameters) {
        static Use of(String type, String member, String... parameters) {
            return new Use(type, member, List.of(parameters));
        }

        @Override
        public String toString() {
            return type + "#" + member + "(" + String.join(", ", parameters) + ")";
        }
    }

    private static final String CODEC = "org.redisson.client.codec.Codec";
    private static final String COMMAND = "org.redisson.client.protocol.RedisCommand";
    private static final String COMMAND_DATA = "org.redisson.client.protocol.CommandData";
    private static final String COMMANDS_DATA = "org.redisson.client.protocol.CommandsData";
    private static final String CONNECTION = "org.redisson.client.RedisConnection";
    private static final String FUTURE = CompletableFuture.class.getName();

    private static final String CLIENT = "org.redisson.client.RedisClient";
    private static final String CLIENT_CONFIG = "org.redisson.client.RedisClientConfig";

    /** Every internal member used (by this class); {@code RedissonInternalsTest} keeps this complete. */
    static final List<Use> USED = List.of(
            // the command executor of the client (cast: RedissonClient does not expose it)
            Use.of("org.redisson.Redisson", "getCommandExecutor"),
            Use.of("org.redisson.command.CommandAsyncExecutor", "getConnectionManager"),
            // MOVED/ASK: Redisson's own path follows the redirect
            Use.of("org.redisson.command.CommandAsyncExecutor", "evalWriteAsync", "java.lang.String", CODEC, COMMAND,
                    "java.lang.String", "java.util.List", "[Ljava.lang.Object;"),
            // the master of a key's slot (failover and resharding are Redisson's)
            Use.of("org.redisson.connection.ConnectionManager", "calcSlot", "[B"),
            Use.of("org.redisson.connection.ConnectionManager", "getWriteEntry", "int"),
            Use.of("org.redisson.connection.MasterSlaveEntry", "getClient"),
            // a dedicated connection to it, written to directly
            Use.of(CLIENT, "connectAsync"),
            Use.of(CONNECTION, "send", COMMAND_DATA),
            Use.of(CONNECTION, "send", COMMANDS_DATA),
            Use.of(CONNECTION, "getChannel"),
            Use.of(CONNECTION, "getRedisClient"),
            Use.of(CONNECTION, "isClosed"),
            Use.of(CONNECTION, "closeAsync"),
            // the commands written: EVALSHA with a list reply, PING, SCRIPT LOAD; one pipelined write of many
            Use.of(COMMAND_DATA, "<init>", FUTURE, CODEC, COMMAND, "[Ljava.lang.Object;"),
            Use.of(COMMAND_DATA, "tryFailure", "java.lang.Throwable"),
            Use.of(COMMANDS_DATA, "<init>", FUTURE, "java.util.List", "boolean", "boolean"),
            Use.of(COMMAND, "<init>", "java.lang.String", "org.redisson.client.protocol.decoder.MultiDecoder"),
            Use.of("org.redisson.client.protocol.decoder.ObjectListReplayDecoder", "<init>"),
            Use.of("org.redisson.client.protocol.RedisCommands", "PING", COMMAND),
            Use.of("org.redisson.client.protocol.RedisCommands", "SCRIPT_LOAD",
                    "org.redisson.client.protocol.RedisStrictCommand"),
            // the preflight: a plain connection of the low-level client, configured as the store's
            Use.of(CLIENT_CONFIG, "<init>"),
            Use.of(CLIENT_CONFIG, "setAddress", "java.lang.String"),
            Use.of(CLIENT_CONFIG, "setConnectTimeout", "int"),
            Use.of(CLIENT_CONFIG, "setCommandTimeout", "int"),
            Use.of(CLIENT_CONFIG, "setClientName", "java.lang.String"),
            Use.of(CLIENT_CONFIG, "setUsername", "java.lang.String"),
            Use.of(CLIENT_CONFIG, "setPassword", "java.lang.String"),
            Use.of(CLIENT_CONFIG, "setDatabase", "int"),
            Use.of(CLIENT_CONFIG, "setSslTrustManagerFactory", "javax.net.ssl.TrustManagerFactory"),
            Use.of(CLIENT_CONFIG, "setSocketChannelClass", "java.lang.Class"),
            Use.of(CLIENT_CONFIG, "setResolverGroup", "io.netty.resolver.AddressResolverGroup"),
            Use.of(CLIENT, "create", CLIENT_CONFIG),
            Use.of(CLIENT, "shutdownAsync"),
            Use.of(CONNECTION, "async", COMMAND, "[Ljava.lang.Object;"));

    private static volatile boolean verified;

    private RedissonInternals() {
    }

    /** The Redisson version on the classpath (its jar's manifest), or "unknown". */
    static String runningVersion() {
        String v = org.redisson.Redisson.class.getPackage().getImplementationVersion();
        return v == null ? "unknown" : v;
    }

    /** The members of {@code uses} this Redisson lacks (empty: all there). */
    static List<Use> missing(List<Use> uses) {
        List<Use> out = new ArrayList<>();
        for (Use u : uses) {
            if (!present(u)) {
                out.add(u);
            }
        }
        return out;
    }

    /** Refuses a Redisson that lacks a member the backend uses; checks once per class loader. */
    static void verify() {
        if (!verified) {
            check(USED);
            verified = true;
        }
    }

    /** Throws, naming them and both versions, if this Redisson lacks any of {@code uses}. */
    static void check(List<Use> uses) {
        List<Use> missing = missing(uses);
        if (!missing.isEmpty()) {
            throw new IllegalStateException("the Redis governor store uses Redisson internals verified with Redisson "
                    + VERIFIED_VERSION + ", but this Redisson (" + runningVersion() + ") lacks " + missing
                    + ": use Redisson " + VERIFIED_VERSION + " (see io.cloudg.resilience.redis.RedissonInternals)");
        }
    }

    private static boolean present(Use u) {
        try {
            Class<?> c = Class.forName(u.type(), false, RedissonInternals.class.getClassLoader());
            Class<?>[] params = new Class<?>[u.parameters().size()];
            for (int i = 0; i < params.length; i++) {
                params[i] = type(u.parameters().get(i));
            }
            if (u.member().equals("<init>")) {
                c.getConstructor(params);
            } else if (u.member().equals(u.member().toUpperCase(java.util.Locale.ROOT))) {
                return params[0].isAssignableFrom(c.getField(u.member()).getType());
            } else {
                c.getMethod(u.member(), params);
            }
            return true;
        } catch (ReflectiveOperationException | LinkageError e) {
            return false;
        }
    }

    private static Class<?> type(String name) throws ClassNotFoundException {
        switch (name) {
            case "int": return int.class;
            case "boolean": return boolean.class;
            case "long": return long.class;
            default: return Class.forName(name, false, RedissonInternals.class.getClassLoader());
        }
    }

    // ------------------------------------------------------------------ ScriptRunner's transport

    /** The two script commands, their replies decoded as lists (a table reply), integers or text. */
    @SuppressWarnings({"rawtypes", "unchecked"})
    private static final RedisCommand<Object> EVALSHA = new RedisCommand("EVALSHA", new ObjectListReplayDecoder());
    @SuppressWarnings({"rawtypes", "unchecked"})
    private static final RedisCommand<Object> FCALL = new RedisCommand("FCALL", new ObjectListReplayDecoder());

    /**
     * {@code client}'s topology and connections, as {@link ScriptRunner} uses them; refuses a client that is not
     * Redisson's own, or a Redisson without the members used.
     */
    static Transport transport(RedissonClient client) {
        if (!(client instanceof Redisson)) {
            throw new IllegalArgumentException("the Redis governor store needs a Redisson client (org.redisson.Redisson),"
                    + " but was " + client.getClass().getName());
        }
        verify();
        return new Transport(((Redisson) client).getCommandExecutor());
    }

    /** Where a key's scripts go (the master of its slot), and connections of one's own to a master. */
    static final class Transport {
        private final CommandAsyncExecutor executor;
        private final ConnectionManager connections;

        private Transport(CommandAsyncExecutor executor) {
            this.executor = executor;
            this.connections = executor.getConnectionManager();
        }

        /**
         * The master serving {@code key}'s slot now, as an opaque handle (equal handles: the same master); failover
         * and resharding are Redisson's.
         */
        Object master(byte[] key) {
            int slot = connections.calcSlot(key);
            MasterSlaveEntry entry = connections.getWriteEntry(slot);
            if (entry == null) {
                throw new RedisConnectionException("no Redis master serves slot " + slot);
            }
            return entry;
        }

        /** A new dedicated connection to {@code master} (with the client's AUTH, TLS, database, name). */
        CompletableFuture<Connection> connect(Object master) {
            RedisClient client = ((MasterSlaveEntry) master).getClient();
            if (client == null) {
                return CompletableFuture.failedFuture(new RedisConnectionException("no Redis master is known yet"));
            }
            return client.connectAsync().toCompletableFuture().thenApply(Connection::new);
        }

        /** Whether {@code c} still goes to {@code master}'s server (false after a failover); true while unknown. */
        boolean serves(Object master, Connection c) {
            RedisClient now = ((MasterSlaveEntry) master).getClient();
            return now == null || now == c.conn.getRedisClient();
        }

        /** {@code EVALSHA} through Redisson's ordinary path, which follows MOVED and ASK. */
        CompletionStage<Object> evalRedirected(String key, String sha, List<Object> keys, Object[] args) {
            return executor.evalWriteAsync(key, StringCodec.INSTANCE, EVALSHA, sha, keys, args);
        }
    }

    /** A dedicated connection: written to on its own event loop, one pipelined {@link Write} at a time. */
    static final class Connection {
        private final RedisConnection conn;

        private Connection(RedisConnection conn) {
            this.conn = conn;
        }

        boolean isClosed() {
            return conn.isClosed();
        }

        /** Runs {@code task} on the connection's event loop. */
        void execute(Runnable task) {
            conn.getChannel().eventLoop().execute(task);
        }

        /** Closes it; the commands it still waits for fail. */
        void close() {
            conn.closeAsync();
        }

        Write write() {
            return new Write(conn);
        }
    }

    /**
     * Commands gathered for one pipelined write; each completes the future it was given with its reply
     * (text, an integer, or a list) or its failure, in order.
     */
    static final class Write {
        private final RedisConnection conn;
        private final List<CommandData<?, ?>> commands = new ArrayList<>();
        private CompletableFuture<?> last;

        private Write(RedisConnection conn) {
            this.conn = conn;
        }

        /** A script by SHA ({@code EVALSHA}) or as a function ({@code FCALL}): name, key count, keys, arguments. */
        void script(boolean function, Object[] params, CompletableFuture<Object> reply) {
            add(new CommandData<>(reply, StringCodec.INSTANCE, function ? FCALL : EVALSHA, params), reply);
        }

        void ping(CompletableFuture<Object> reply) {
            add(new CommandData<>(reply, StringCodec.INSTANCE, RedisCommands.PING, new Object[0]), reply);
        }

        void scriptLoad(String text, CompletableFuture<Object> reply) {
            add(new CommandData<>(reply, StringCodec.INSTANCE, RedisCommands.SCRIPT_LOAD, new Object[] {text}), reply);
        }

        private void add(CommandData<?, ?> command, CompletableFuture<?> reply) {
            commands.add(command);
            last = reply;
        }

        int size() {
            return commands.size();
        }

        /** The future of the last command added: the answers come in order, so it completes last. */
        CompletableFuture<?> lastReply() {
            return last;
        }

        /** Sends the commands as one write; a failed write fails each. */
        void send() {
            ChannelFuture f = commands.size() == 1 ? conn.send(commands.get(0))
                    : conn.send(new CommandsData(new CompletableFuture<>(), commands, false, false));
            f.addListener(w -> {
                if (!w.isSuccess()) {
                    for (CommandData<?, ?> d : commands) {
                        d.tryFailure(w.cause());
                    }
                }
            });
        }
    }

    // ------------------------------------------------------------------ the preflight's plain connection

    /**
     * One plain connection to {@code address} (no pool, no retries): resolve, connect, the TLS handshake (with
     * {@code trust}, or the JVM's when null), AUTH, SELECT ({@code database}, unless null), PING. Null when it
     * answered PING, else what went wrong (a {@link TimeoutException} for silence); waits at most
     * {@code connectTimeoutMs} plus three {@code timeoutMs}.
     */
    static Throwable ping(String address, int connectTimeoutMs, int timeoutMs, String username, String password,
                          Integer database, TrustManagerFactory trust) {
        verify();
        RedisClientConfig c = new RedisClientConfig().setAddress(address).setConnectTimeout(connectTimeoutMs)
                .setCommandTimeout(timeoutMs).setClientName("cloudg-preflight").setUsername(username)
                .setPassword(password);
        if (database != null) {
            c.setDatabase(database);
        }
        if (trust != null) {
            c.setSslTrustManagerFactory(trust);
        }
        long bound = connectTimeoutMs + 3L * timeoutMs;
        // NIO and netty's resolver, named: left unset, the client probes for the native transports' classes
        DnsAddressResolverGroup resolver = new DnsAddressResolverGroup(NioDatagramChannel.class,
                DnsServerAddressStreamProviders.platformDefault());
        c.setSocketChannelClass(NioSocketChannel.class).setResolverGroup(resolver);
        RedisClient client = RedisClient.create(c);
        try {
            RedisConnection conn = client.connectAsync().toCompletableFuture().get(bound, TimeUnit.MILLISECONDS);
            try {
                conn.async(RedisCommands.PING).toCompletableFuture().get(timeoutMs * 2L, TimeUnit.MILLISECONDS);
                return null;
            } finally {
                conn.closeAsync();
            }
        } catch (ExecutionException e) {
            return e.getCause() == null ? e : e.getCause();
        } catch (TimeoutException e) {
            return e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return e;
        } catch (RuntimeException e) {
            return e;
        } finally {
            client.shutdownAsync().whenComplete((v, e) -> resolver.close());
        }
    }
}
