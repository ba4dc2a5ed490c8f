package io.cloudg.mcp.guard.redis;

import io.cloudg.resilience.redis.LuaScripts;

/** The guard's Lua scripts and the SHA-1 that {@code EVALSHA} calls each by (computed here, no round trip). */
enum GuardScript {
    /** {@code GuardRules.decide} and the registration of a start. */
    START("start.lua"),
    /** The heartbeat of a running operation: extend its registration. */
    RENEW("renew.lua"),
    /** The end of an operation: free its scopes, start their cooldowns. */
    FINISH("finish.lua"),
    /** Read-only view for {@code rate_limit_status}. */
    SNAPSHOT("snapshot.lua");

    final String text;
    final String sha;

    GuardScript(String file) {
        this.text = LuaScripts.read(GuardScript.class, file);
        this.sha = LuaScripts.sha1(text);
    }
}
