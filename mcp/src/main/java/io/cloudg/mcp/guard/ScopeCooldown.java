package io.cloudg.mcp.guard;

/** A scope and the cooldown that follows an operation on it, in milliseconds. */
public record ScopeCooldown(String scope, long cooldownMillis) {
}
