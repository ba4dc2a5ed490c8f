package io.cloudg.mcp.guard;

import io.cloudg.resilience.time.TimeSource;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The guard's state in this process: one lock, one injected clock ({@link TimeSource}, a
 * {@code ManualTimeSource} in tests). Enough for a single MCP server; replicas share a
 * {@code RedisGuardStore} instead.
 */
public final class InMemoryGuardStore implements GuardStore {
    private final TimeSource time;
    private final Map<String, InFlight> inFlight = new LinkedHashMap<>();
    private final Map<String, Long> cooldownUntil = new HashMap<>();
    private final Map<String, Deque<Long>> callerStarts = new HashMap<>();

    public InMemoryGuardStore(TimeSource time) {
        this.time = time;
    }

    private long now() {
        return time.nanoTime() / 1_000_000L;
    }

    @Override
    public synchronized StartDecision tryStart(StartRequest r) {
        long now = now();
        inFlight.values().removeIf(f -> f.deadlineMillis() <= now);
        cooldownUntil.values().removeIf(until -> until <= now);
        Deque<Long> starts = callerStarts.computeIfAbsent(r.principal(), k -> new ArrayDeque<>());
        while (!starts.isEmpty() && starts.peekFirst() <= now - r.callerWindowMillis()) {
            starts.pollFirst();
        }
        StartDecision d = GuardRules.decide(List.copyOf(inFlight.values()), cooldownUntil, List.copyOf(starts), now, r);
        if (d.started()) {
            inFlight.put(r.operationId(), new InFlight(r.operationId(), r.tool(), r.principal(),
                    r.scopes().stream().map(ScopeCooldown::scope).toList(), now, now + r.leaseMillis()));
            if (r.callerMaxOperations() > 0) {
                starts.addLast(now);
            }
        }
        return d;
    }

    @Override
    public synchronized boolean renew(String operationId, long leaseMillis) {
        long now = now();
        InFlight f = inFlight.get(operationId);
        if (f == null || f.deadlineMillis() <= now) {
            inFlight.remove(operationId);
            return false;
        }
        inFlight.put(operationId, new InFlight(f.operationId(), f.tool(), f.principal(), f.scopes(), f.startedMillis(),
                now + leaseMillis));
        return true;
    }

    @Override
    public synchronized void finish(String operationId, List<ScopeCooldown> cooldowns) {
        long now = now();
        inFlight.remove(operationId);
        for (ScopeCooldown c : cooldowns) {
            cooldownUntil.merge(c.scope(), now + c.cooldownMillis(), Math::max);
        }
    }

    @Override
    public synchronized GuardSnapshot snapshot(String principal, long callerWindowMillis) {
        long now = now();
        List<InFlight> live = new ArrayList<>();
        for (InFlight f : inFlight.values()) {
            if (f.deadlineMillis() > now) {
                live.add(f);
            }
        }
        Map<String, Long> cooling = new HashMap<>();
        cooldownUntil.forEach((s, until) -> {
            if (until > now) {
                cooling.put(s, until);
            }
        });
        Deque<Long> starts = callerStarts.getOrDefault(principal, new ArrayDeque<>());
        int recent = (int) starts.stream().filter(t -> t > now - callerWindowMillis).count();
        return new GuardSnapshot(now, live, cooling, recent);
    }

    @Override
    public String describe() {
        return "memory";
    }
}
