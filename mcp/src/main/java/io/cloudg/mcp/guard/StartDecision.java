package io.cloudg.mcp.guard;

import java.util.List;

/**
 * The store's answer to {@link GuardStore#tryStart}: started, or refused with the first failing check's
 * reason, the configuration key that refused, the scopes in the way and how long until every failing check
 * could pass.
 *
 * @param started whether the operation is now registered
 * @param reason why not (null when started)
 * @param limit the {@code ratelimit.live_*} key that refused (null when started)
 * @param retryAfterMillis how long until a retry could pass every check that failed (0 when started)
 * @param blockingScopes the scopes in the way (empty for the overall cap and the quota)
 */
public record StartDecision(boolean started, RefusalReason reason, String limit, long retryAfterMillis,
                            List<String> blockingScopes) {
    public StartDecision {
        blockingScopes = List.copyOf(blockingScopes);
    }

    public static StartDecision start() {
        return new StartDecision(true, null, null, 0, List.of());
    }

    public static StartDecision refuse(RefusalReason reason, String limit, long retryAfterMillis, List<String> scopes) {
        return new StartDecision(false, reason, limit, Math.max(0, retryAfterMillis), scopes);
    }
}
