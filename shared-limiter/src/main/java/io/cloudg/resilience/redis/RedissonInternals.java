package io.cloudg.resilience.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The Redisson members outside its public API ({@code org.redisson.api}, {@code org.redisson.config},
 * codecs, exceptions, {@code Redisson.create}) that the Redis backend uses, every one of them listed here,
 * and the check that they are there.
 *
 * <p><b>Why internals at all.</b> {@link ScriptRunner} keeps one dedicated connection per Redis master and
 * writes the scripts queued by many callers onto it as one pipelined write, in queue order. Redisson's
 * public API has no such thing: {@code RScript.evalShaAsync} lends each command a pooled connection for its
 * whole round trip, with a scheduled timeout and a future chain per command (about three times the client
 * CPU per governed call, measured: {@code BENCHMARKS.md}), and {@code RBatch} gives no order between two
 * batches on different pooled connections, which {@code recordAsync} relies on (an outcome, then the next
 * admission of the same leaf). So the runner borrows, from Redisson, the connection of the right master
 * (with the client's AUTH, ACL user, TLS, database and client name, and its failover and slot map) and the
 * command objects it writes; a MOVED or ASK answer goes through Redisson's ordinary redirect-following
 * path. These are the members in {@link #USED}.
 *
 * <p><b>What protects an upgrade.</b> {@link #verify()} runs when a store is built and refuses, naming every
 * missing member and both versions, a Redisson without them (a dependency upgraded elsewhere in an
 * application would otherwise fail at the first call with a {@code NoSuchMethodError}, or not at all and
 * misbehave). {@code RedissonInternalsTest} fails when the Redisson on the build's classpath is not
 * {@link #VERIFIED_VERSION} (so an upgrade cannot go through without someone re-running the Redis contract
 * suites against standalone, Sentinel and Cluster servers and updating that constant), when a listed member
 * is missing, and when any class of this package references a non-API Redisson class that is not listed
 * here.
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

    /** Every internal member used (by {@link ScriptRunner}); {@code RedissonInternalsTest} keeps this complete. */
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
            Use.of("org.redisson.client.RedisClient", "connectAsync"),
            // the start-up check's one plain connection (RedisPreflight), configured before any pool exists
            Use.of("org.redisson.client.RedisClientConfig", "<init>"),
            Use.of(CONNECTION, "send", COMMAND_DATA),
            Use.of(CONNECTION, "send", COMMANDS_DATA),
            Use.of(CONNECTION, "getChannel"),
            Use.of(CONNECTION, "getRedisClient"),
            Use.of(CONNECTION, "isClosed"),
            Use.of(CONNECTION, "closeAsync"),
            // the commands written: EVALSHA with a list reply, PING, SCRIPT LOAD; one pipelined write of many
            Use.of(COMMAND_DATA, "<init>", FUTURE, CODEC, COMMAND, "[Ljava.lang.Object;"),
            Use.of(COMMAND_DATA, "tryFailure", "java.lang.Throwable"),
            // the future of a write's last command: its answer lets the lane's next flush go (ScriptRunner.IN_FLIGHT)
            Use.of(COMMAND_DATA, "getPromise"),
            Use.of(COMMANDS_DATA, "<init>", FUTURE, "java.util.List", "boolean", "boolean"),
            Use.of(COMMAND, "<init>", "java.lang.String", "org.redisson.client.protocol.decoder.MultiDecoder"),
            Use.of("org.redisson.client.protocol.decoder.ObjectListReplayDecoder", "<init>"),
            Use.of("org.redisson.client.protocol.RedisCommands", "PING", COMMAND),
            Use.of("org.redisson.client.protocol.RedisCommands", "SCRIPT_LOAD",
                    "org.redisson.client.protocol.RedisStrictCommand"));

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
}
