package io.cloudg.resilience.redis;

import java.nio.charset.StandardCharsets;

/**
 * The Lua scripts of the Redis backend, each {@code common.lua} + its own file with its {@code --@include}
 * lines replaced by the helper files they name (a script defines only what it runs, where it runs it: every
 * function definition executes on every call), and the SHA-1 that {@code EVALSHA} calls them by (computed
 * here, so no round trip is needed to learn it).
 */
enum Script {
    /** Breaker, leaf, account bucket and bulkhead slot before an attempt. */
    ADMIT("admit.lua"),
    /** AIMD, breaker verdict and slot release after an attempt. */
    RECORD("record.lua"),
    /** Bulkhead lease operations. */
    SLOTS("slots.lua"),
    /** The provider-wide bucket. */
    GLOBAL("global.lua"),
    /** The retry budget. */
    BUDGET("budget.lua"),
    /** Several ADMIT and RECORD calls in one run (what a lane queued, in order). */
    BATCH("batch.lua");

    final String text;
    final String sha;
    /** {@link #sha} as the bytes sent on the wire. */
    final byte[] shaBytes;

    Script(String file) {
        this.text = LuaScripts.read(Script.class, "common.lua") + "\n" + LuaScripts.load(Script.class, file);
        this.sha = LuaScripts.sha1(text);
        this.shaBytes = sha.getBytes(StandardCharsets.US_ASCII);
    }
}
