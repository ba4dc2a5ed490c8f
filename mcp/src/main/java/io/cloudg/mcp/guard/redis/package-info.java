/**
 * The guard's state in Redis, shared by MCP server replicas: three keys under one hash tag, one Lua script
 * per operation (start, finish, snapshot) run by SHA with reload on {@code NOSCRIPT}, time from Redis
 * {@code TIME}. Redisson is the client (the same as the governor's Redis backend); errors become
 * {@link io.cloudg.mcp.guard.GuardUnavailableException} and the guard refuses rather than run unguarded.
 */
package io.cloudg.mcp.guard.redis;
