package io.cloudg.mcp.guard;

/**
 * How a guarded operation ended, as every caller that ran or joined it sees it.
 *
 * @param operationId the operation
 * @param joined whether this caller joined a run another caller started
 * @param state SUCCEEDED, FAILED, TIMED_OUT or CANCELLED
 * @param value the work's result (SUCCEEDED only)
 * @param error what went wrong (other states)
 * @param durationMillis from start to end
 * @param <R> the work's result type
 */
public record GuardOutcome<R>(String operationId, boolean joined, OperationState state, R value, String error,
                              long durationMillis) {

    /** The same outcome as seen by a caller that joined. */
    public GuardOutcome<R> asJoined() {
        return new GuardOutcome<>(operationId, true, state, value, error, durationMillis);
    }

    public boolean succeeded() {
        return state == OperationState.SUCCEEDED;
    }
}
