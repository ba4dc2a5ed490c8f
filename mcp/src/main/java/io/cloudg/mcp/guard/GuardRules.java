package io.cloudg.mcp.guard;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The guard rails as one pure function: {@code (state, now, request) -> decision}. Every store applies it
 * (the Redis store's {@code start.lua} is its line-by-line translation, and the shared contract suite holds
 * both to the same answers).
 *
 * <p>The checks, in the order that names the reason of a refusal:
 * <table>
 *   <caption>Checks of a start</caption>
 *   <tr><th>check</th><th>fails when</th><th>retry after</th><th>limit key</th></tr>
 *   <tr><td>busy (scope)</td><td>a requested scope has {@code maxPerScope} operations in flight</td>
 *       <td>the longest cooldown of the request: a running operation is followed by one</td>
 *       <td>{@code live_max_concurrent}</td></tr>
 *   <tr><td>busy (total)</td><td>{@code maxTotal} operations are in flight</td><td>as above</td>
 *       <td>{@code live_max_concurrent_total}</td></tr>
 *   <tr><td>cooldown</td><td>not forced, and a requested scope's cooldown has not ended</td>
 *       <td>until the last of those cooldowns ends</td><td>{@code live_cooldown_seconds}</td></tr>
 *   <tr><td>quota</td><td>{@code callerMaxOperations > 0} and the caller started that many within the
 *       window</td><td>until enough of those starts leave the window</td>
 *       <td>{@code live_caller_max_operations}</td></tr>
 * </table>
 * A refusal carries the reason and limit of the first failing check and, as retry-after, the longest wait
 * of all failing checks (retrying sooner could not pass). Busy waits at least one second.
 */
public final class GuardRules {
    /** The least busy hint, so that a zero cooldown does not invite a tight retry loop. */
    public static final long MIN_BUSY_RETRY_MILLIS = 1_000;

    private GuardRules() {
    }

    /** One check's verdict when it fails. */
    private record Failure(RefusalReason reason, String limit, long retryAfterMillis, List<String> scopes) {
    }

    /**
     * Decides a start.
     *
     * @param inFlight registrations whose lease has not lapsed
     * @param cooldownUntil end of cooldown per scope (entries in the past are ignored)
     * @param callerStarts the principal's start times within the window, oldest first
     */
    public static StartDecision decide(List<InFlight> inFlight, Map<String, Long> cooldownUntil, List<Long> callerStarts,
                                       long now, StartRequest r) {
        List<Failure> failures = new ArrayList<>();
        busy(inFlight, r).ifPresent(failures::add);
        cooldown(cooldownUntil, now, r).ifPresent(failures::add);
        quota(callerStarts, now, r).ifPresent(failures::add);
        if (failures.isEmpty()) {
            return StartDecision.start();
        }
        Failure first = failures.get(0);
        long retry = failures.stream().mapToLong(Failure::retryAfterMillis).max().orElse(0);
        return StartDecision.refuse(first.reason(), first.limit(), retry, first.scopes());
    }

    private static Optional<Failure> busy(List<InFlight> inFlight, StartRequest r) {
        long hint = Math.max(MIN_BUSY_RETRY_MILLIS, r.longestCooldownMillis());
        TreeSet<String> full = new TreeSet<>();
        for (ScopeCooldown s : r.scopes()) {
            long holding = inFlight.stream().filter(f -> f.scopes().contains(s.scope())).count();
            if (holding >= r.maxPerScope()) {
                full.add(s.scope());
            }
        }
        if (!full.isEmpty()) {
            return Optional.of(new Failure(RefusalReason.BUSY, "live_max_concurrent", hint, List.copyOf(full)));
        }
        if (inFlight.size() >= r.maxTotal()) {
            return Optional.of(new Failure(RefusalReason.BUSY, "live_max_concurrent_total", hint, List.of()));
        }
        return Optional.empty();
    }

    private static Optional<Failure> cooldown(Map<String, Long> cooldownUntil, long now, StartRequest r) {
        if (r.force()) {
            return Optional.empty();
        }
        TreeSet<String> cooling = new TreeSet<>();
        long longest = 0;
        for (ScopeCooldown s : r.scopes()) {
            Long until = cooldownUntil.get(s.scope());
            if (until != null && until > now) {
                cooling.add(s.scope());
                longest = Math.max(longest, until - now);
            }
        }
        return cooling.isEmpty() ? Optional.empty()
                : Optional.of(new Failure(RefusalReason.COOLDOWN, "live_cooldown_seconds", longest, List.copyOf(cooling)));
    }

    private static Optional<Failure> quota(List<Long> callerStarts, long now, StartRequest r) {
        int max = r.callerMaxOperations();
        if (max <= 0 || callerStarts.size() < max) {
            return Optional.empty();
        }
        // the start that must leave the window before one more fits
        long pivot = callerStarts.get(callerStarts.size() - max);
        return Optional.of(new Failure(RefusalReason.QUOTA, "live_caller_max_operations",
                pivot + r.callerWindowMillis() - now, List.of()));
    }
}
