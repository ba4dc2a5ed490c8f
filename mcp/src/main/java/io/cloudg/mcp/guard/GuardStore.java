package io.cloudg.mcp.guard;

import java.util.List;

/**
 * Where the live-operation guard keeps what must be shared by every MCP server replica of one estate:
 * operations in flight with their scopes, each scope's end of cooldown, and each principal's recent starts.
 * {@link InMemoryGuardStore} serves one process; {@code RedisGuardStore} a set of replicas. Both implement
 * {@link GuardRules} and pass the same contract suite.
 *
 * <p>Contract for every implementation:
 * <ul>
 *   <li>Each method MUST be atomic with respect to every other call, from any thread or (for a shared
 *       store) any process: two replicas can never both start the last free slot.</li>
 *   <li>Each method MUST read time once, from the store's own clock (an injected time source in process;
 *       the server's {@code TIME} for Redis), never from the caller.</li>
 *   <li>{@link #tryStart} MUST first forget registrations whose lease lapsed and quota entries older than
 *       the window, then decide by {@link GuardRules#decide}, and register the operation (and the
 *       principal's start, when a quota is set) only when it starts. A refusal MUST change nothing.</li>
 *   <li>A registration lives until its lease lapses; the guard renews it ({@link #renew}) while the
 *       operation runs, so a replica that dies frees its scopes within one lease.</li>
 *   <li>{@link #finish} MUST remove the registration and extend each scope's cooldown to at least now + its
 *       cooldown, whether or not the registration still existed (a lapsed operation still ended). It MUST
 *       be idempotent.</li>
 *   <li>Methods MAY throw {@link GuardUnavailableException} when a shared store cannot be reached; the
 *       guard then refuses live operations rather than run them unguarded.</li>
 * </ul>
 */
public interface GuardStore extends AutoCloseable {

    /** Decides and, if the operation may start, registers it. */
    StartDecision tryStart(StartRequest request);

    /**
     * Extends a registration to now + {@code leaseMillis} (the heartbeat of a running operation). MUST
     * return false, changing nothing but forgetting a lapsed registration, when it is gone or has lapsed.
     */
    boolean renew(String operationId, long leaseMillis);

    /** Ends an operation: frees its scopes and starts their cooldowns. */
    void finish(String operationId, List<ScopeCooldown> cooldowns);

    /** In-flight operations, cooldowns and {@code principal}'s starts within {@code callerWindowMillis}. */
    GuardSnapshot snapshot(String principal, long callerWindowMillis);

    /** {@code memory} or {@code redis <addresses> prefix=<p>}, for the status report. */
    String describe();

    @Override
    default void close() {
    }
}
