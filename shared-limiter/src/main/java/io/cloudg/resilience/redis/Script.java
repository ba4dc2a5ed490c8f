package io.cloudg.resilience.redis;

import java.nio.charset.StandardCharsets;

/**
 * The Lua scripts of the Redis backend, in two forms of the one library {@code cloudg.lua} (every rule of the
 * governor, once):
 * <ul>
 *   <li>Redis 7 and later: one function library ({@code FUNCTION LOAD}, {@link Functions}), loaded once per
 *       server, whose functions ({@link #function}) {@code FCALL} calls: the library's definitions run once,
 *       at load;</li>
 *   <li>Redis 6: a script per entry point, the library followed by the line that calls it, which
 *       {@code EVALSHA} calls by its SHA-1 (computed here, so no round trip is needed to learn it): every run
 *       defines the library again (measured: 13 us of Redis CPU a run on the 2-core build machine, against
 *       1 us for an empty script).</li>
 * </ul>
 * The entry line is the same in both ({@code KEYS} and {@code ARGV} are the function's parameters there).
 */
enum Script {
    /** Breaker, leaf, account bucket and bulkhead slot before an attempt. */
    ADMIT("return admit(KEYS, ARGV, clock(ARGV[1]))"),
    /** AIMD, breaker verdict and slot release after an attempt. */
    RECORD("return record(KEYS, ARGV, clock(ARGV[1]))"),
    /** Bulkhead lease operations. */
    SLOTS("return slots(KEYS, ARGV)"),
    /** The provider-wide bucket. */
    GLOBAL("return global(KEYS, ARGV)"),
    /** The retry budget. */
    BUDGET("return budget(KEYS, ARGV)"),
    /** Several ADMIT, RECORD and FREE calls in one run (what a lane queued, in order). */
    BATCH("return batch(KEYS, ARGV)"),
    /** Deferred slot releases of one bulkhead, several at once. */
    FREE("return free(KEYS, ARGV)"),
    /** The troubled leaves of one account, from its index (which it prunes). */
    TROUBLED("return troubled(KEYS, ARGV)"),
    /** An account's index in the estate's registry. */
    REGISTER("return register(KEYS, ARGV)"),
    /** The registry's account indexes (it drops the lapsed ones). */
    REGISTERED("return registered(KEYS, ARGV)"),
    /** This process in the estate's set of live processes; how many are live. */
    MEMBER("return member(KEYS, ARGV)");

    /** The library every script starts with (a holder: an enum's constructor cannot read its static fields). */
    static final class Library {
        static final String TEXT = LuaScripts.read(Script.class, "cloudg.lua");
        /** Effects replication, which Redis 5 and later use anyway (scripts read TIME before writing). */
        static final String PREAMBLE = "if redis.replicate_commands then redis.replicate_commands() end\n";

        private Library() {
        }
    }

    final String entry;
    final String text;
    final String sha;
    /** {@link #sha} as the bytes sent on the wire. */
    final byte[] shaBytes;

    Script(String entry) {
        this.entry = entry;
        this.text = Library.PREAMBLE + Library.TEXT + "\n" + entry + "\n";
        this.sha = LuaScripts.sha1(text);
        this.shaBytes = sha.getBytes(StandardCharsets.US_ASCII);
    }

    /** This entry point's function name in the function library, as the bytes {@code FCALL} sends. */
    byte[] function() {
        return Functions.NAMES[ordinal()];
    }

    /**
     * The function library: the library's text and one {@code redis.register_function} per entry point. Its
     * name carries the SHA-1 of its code, so that workers of different cloudg versions sharing a Redis each
     * call their own functions.
     */
    static final class Functions {
        /** The code {@code FUNCTION LOAD} takes, without the {@code #!lua name=} line (Redisson adds it). */
        static final String CODE;
        static final String LIBRARY;
        private static final byte[][] NAMES;

        static {
            StringBuilder registrations = new StringBuilder();
            for (Script s : values()) {
                registrations.append("redis.register_function('@LIB@_").append(s.name().toLowerCase(java.util.Locale.ROOT))
                        .append("', function(KEYS, ARGV) ").append(s.entry).append(" end)\n");
            }
            String body = Library.TEXT + "\n" + registrations;
            LIBRARY = "cloudg_" + LuaScripts.sha1(body).substring(0, 16);
            CODE = body.replace("@LIB@", LIBRARY);
            NAMES = new byte[values().length][];
            for (Script s : values()) {
                NAMES[s.ordinal()] = (LIBRARY + "_" + s.name().toLowerCase(java.util.Locale.ROOT))
                        .getBytes(StandardCharsets.US_ASCII);
            }
        }

        private Functions() {
        }
    }
}
