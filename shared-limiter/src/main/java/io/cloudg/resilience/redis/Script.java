package io.cloudg.resilience.redis;

import java.nio.charset.StandardCharsets;

/**
 * The Lua scripts of the Redis backend: each is the one library {@code cloudg.lua} (every rule of the
 * governor, once) followed by the line that calls its entry point, and the SHA-1 that {@code EVALSHA} calls
 * it by (computed here, so no round trip is needed to learn it). Defining the library's functions is part of
 * every script run (a few microseconds of Lua, paid once per run of a batch).
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
    FREE("return free(KEYS, ARGV)");

    /** The library every script starts with (a holder: an enum's constructor cannot read its static fields). */
    static final class Library {
        static final String TEXT = LuaScripts.read(Script.class, "cloudg.lua");
        /** Effects replication, which Redis 5 and later use anyway (scripts read TIME before writing). */
        static final String PREAMBLE = "if redis.replicate_commands then redis.replicate_commands() end\n";

        private Library() {
        }
    }

    final String text;
    final String sha;
    /** {@link #sha} as the bytes sent on the wire. */
    final byte[] shaBytes;

    Script(String entry) {
        this.text = Library.PREAMBLE + Library.TEXT + "\n" + entry + "\n";
        this.sha = LuaScripts.sha1(text);
        this.shaBytes = sha.getBytes(StandardCharsets.US_ASCII);
    }
}
