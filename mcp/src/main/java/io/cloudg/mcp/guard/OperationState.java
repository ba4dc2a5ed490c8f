package io.cloudg.mcp.guard;

import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * The life of one live operation. Every transition out of {@link #RUNNING} is terminal and frees the
 * operation's scopes and starts their cooldowns exactly once, whichever comes first:
 *
 * <table>
 *   <caption>Transitions</caption>
 *   <tr><th>from</th><th>to</th><th>when</th></tr>
 *   <tr><td>RUNNING</td><td>SUCCEEDED</td><td>the work returned</td></tr>
 *   <tr><td>RUNNING</td><td>FAILED</td><td>the work threw</td></tr>
 *   <tr><td>RUNNING</td><td>TIMED_OUT</td><td>{@code live_operation_timeout_seconds} passed; the work is
 *       interrupted</td></tr>
 *   <tr><td>RUNNING</td><td>CANCELLED</td><td>the server is shutting down; the work is interrupted</td></tr>
 * </table>
 * A terminal state never changes: a work that returns after its timeout is ignored.
 */
public enum OperationState {
    RUNNING,
    SUCCEEDED,
    FAILED,
    TIMED_OUT,
    CANCELLED;

    private static final Map<OperationState, Set<OperationState>> NEXT = new EnumMap<>(OperationState.class);

    static {
        NEXT.put(RUNNING, EnumSet.of(SUCCEEDED, FAILED, TIMED_OUT, CANCELLED));
        for (OperationState s : values()) {
            NEXT.putIfAbsent(s, EnumSet.noneOf(OperationState.class));
        }
    }

    /** Whether the table allows {@code this -> to}. */
    public boolean canBecome(OperationState to) {
        return NEXT.get(this).contains(to);
    }

    public boolean terminal() {
        return NEXT.get(this).isEmpty();
    }
}
