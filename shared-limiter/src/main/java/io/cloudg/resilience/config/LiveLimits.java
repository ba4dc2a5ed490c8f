package io.cloudg.resilience.config;

/**
 * Guard rails for live collections requested through MCP ({@code ratelimit.live_*}). Stored here so
 * that one configuration block holds every limit; the MCP server enforces them.
 *
 * @param maxConcurrent live operations at once per scope ({@code live_max_concurrent}, 1)
 * @param maxConcurrentTotal live operations at once overall ({@code live_max_concurrent_total}, 2)
 * @param cooldownSeconds pause after an operation on a scope ends, failed ones included
 *        ({@code live_cooldown_seconds}, 120); a provider's own value wins
 * @param callerMaxOperations operations per caller per window, 0 = off ({@code live_caller_max_operations})
 * @param callerWindowSeconds the window of that quota ({@code live_caller_window_seconds}, 3600)
 * @param operationTimeoutSeconds an operation still running after this is cancelled
 *        ({@code live_operation_timeout_seconds}, 3600)
 */
public record LiveLimits(int maxConcurrent, int maxConcurrentTotal, int cooldownSeconds, int callerMaxOperations,
                         int callerWindowSeconds, int operationTimeoutSeconds) {

    public static final LiveLimits DEFAULTS = new LiveLimits(1, 2, 120, 0, 3600, 3600);

    public LiveLimits {
        ConfigErrors.atLeast("ratelimit.live_max_concurrent", maxConcurrent, 1);
        ConfigErrors.atLeast("ratelimit.live_max_concurrent_total", maxConcurrentTotal, 1);
        ConfigErrors.atLeast("ratelimit.live_cooldown_seconds", cooldownSeconds, 0);
        ConfigErrors.atLeast("ratelimit.live_caller_max_operations", callerMaxOperations, 0);
        ConfigErrors.atLeast("ratelimit.live_caller_window_seconds", callerWindowSeconds, 1);
        ConfigErrors.atLeast("ratelimit.live_operation_timeout_seconds", operationTimeoutSeconds, 1);
    }

    public LiveLimits withMaxConcurrent(int v) {
        return new LiveLimits(v, maxConcurrentTotal, cooldownSeconds, callerMaxOperations, callerWindowSeconds, operationTimeoutSeconds);
    }

    public LiveLimits withMaxConcurrentTotal(int v) {
        return new LiveLimits(maxConcurrent, v, cooldownSeconds, callerMaxOperations, callerWindowSeconds, operationTimeoutSeconds);
    }

    public LiveLimits withCooldownSeconds(int v) {
        return new LiveLimits(maxConcurrent, maxConcurrentTotal, v, callerMaxOperations, callerWindowSeconds, operationTimeoutSeconds);
    }

    public LiveLimits withCallerMaxOperations(int v) {
        return new LiveLimits(maxConcurrent, maxConcurrentTotal, cooldownSeconds, v, callerWindowSeconds, operationTimeoutSeconds);
    }

    public LiveLimits withCallerWindowSeconds(int v) {
        return new LiveLimits(maxConcurrent, maxConcurrentTotal, cooldownSeconds, callerMaxOperations, v, operationTimeoutSeconds);
    }

    public LiveLimits withOperationTimeoutSeconds(int v) {
        return new LiveLimits(maxConcurrent, maxConcurrentTotal, cooldownSeconds, callerMaxOperations, callerWindowSeconds, v);
    }
}
