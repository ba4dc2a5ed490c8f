/**
 * The live-operation guard: the spec's "Guard rails for live collections (MCP)".
 *
 * <p>Design:
 * <ul>
 *   <li>{@link io.cloudg.mcp.guard.GuardRules} is the whole policy as one pure function
 *       {@code (in-flight, cooldowns, caller starts, now, request) -> decision}, with the order of its checks
 *       (busy, cooldown, quota) as a table. Stores apply it atomically; the Redis store's {@code start.lua}
 *       is its translation and the shared {@code GuardStoreContract} holds both to the same answers.</li>
 *   <li>{@link io.cloudg.mcp.guard.GuardStore} holds only what replicas must share: registrations of
 *       operations in flight (with a lease, so a replica that dies does not hold a scope forever), the end
 *       of each scope's cooldown, each principal's recent starts. {@link io.cloudg.mcp.guard.InMemoryGuardStore}
 *       runs on an injected clock; the Redis store on the server's {@code TIME}.</li>
 *   <li>{@link io.cloudg.mcp.guard.LiveOperationGuard} adds what lives in one process: joining identical
 *       calls (the outcome is a local future), running the work on its own thread, the operation timeout on
 *       the injected {@code TimeSource}, and the {@link io.cloudg.mcp.guard.OperationState} table, whose
 *       single terminal transition frees the scopes and starts their cooldowns exactly once.</li>
 *   <li>Scopes come from the configuration ({@link io.cloudg.mcp.guard.LiveScopes}), never from discovery,
 *       so a refusal costs no API call.</li>
 * </ul>
 */
package io.cloudg.mcp.guard;
