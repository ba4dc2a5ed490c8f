package io.cloudg.mcp.guard;

/**
 * Hears what the guard decides (logs, metrics, tests waiting on a latch instead of sleeping). Called on the
 * deciding thread; implementations MUST be quick and MUST NOT throw.
 */
public interface GuardListener {
    GuardListener NONE = new GuardListener() {
    };

    default void started(String operationId, LiveCall call, Principal principal, boolean forced) {
    }

    default void joined(String operationId, LiveCall call, Principal principal) {
    }

    default void refused(LiveCall call, Principal principal, Refusal refusal) {
    }

    default void finished(String operationId, LiveCall call, OperationState state, long durationMillis) {
    }
}
