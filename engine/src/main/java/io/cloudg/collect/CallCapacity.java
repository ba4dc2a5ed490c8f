package io.cloudg.collect;

import io.cloudg.resilience.config.RateLimitConfig;

/**
 * How many calls a process's collector jobs can have in flight at once, which is what its HTTP clients' connection
 * pools are sized by (one pool per client, shared by every account): {@code jobs} jobs of at most
 * {@code callsPerJob} calls each, never more than the process's ceiling, {@code ratelimit.max_calls_in_flight}. A
 * pool opens connections as calls need them and closes those left idle, so the size is a bound, not a cost.
 */
public final class CallCapacity {
    private CallCapacity() {
    }

    /** {@code min(max_calls_in_flight, jobs x callsPerJob)}, at least 1. */
    public static int of(int jobs, int callsPerJob, RateLimitConfig ratelimit) {
        long calls = (long) Math.max(1, jobs) * Math.max(1, callsPerJob);
        return (int) Math.min(ratelimit.maxCallsInFlight(), calls);
    }
}
