package io.cloudg.resilience.report;

import io.cloudg.resilience.spi.Scope;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Throttling counters per service scope, plus the {@code skipped} reasons: what a run (or the whole
 * process) went through. The governor keeps one for the process and feeds a run's own instance too when
 * the call's {@link io.cloudg.resilience.TaskLedger} belongs to a run. Thread-safe.
 */
public final class ThrottlingStats {
    private final ConcurrentHashMap<Scope, ScopeCounters> scopes = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<Scope, String> skipped = new ConcurrentHashMap<>();
    /** Every scope's events, added as they happen: read in O(1) by progress lines, many times a second. */
    private final ScopeCounters total = new ScopeCounters();

    /** The counters of a service scope (operation dropped), created on first use. */
    public ScopeCounters counters(Scope serviceScope) {
        ScopeCounters c = scopes.get(serviceScope);
        return c != null ? c : scopes.computeIfAbsent(serviceScope, k -> new ScopeCounters(total));
    }

    /** Notes why calls of a service scope were lost; the first reason per scope is kept. */
    public void skipped(Scope serviceScope, String reason) {
        skipped.putIfAbsent(serviceScope, reason);
    }

    /** Counters of every scope, sorted by scope. */
    public Map<Scope, Counts> countsByScope() {
        Map<Scope, Counts> out = new TreeMap<>((a, b) -> a.toString().compareTo(b.toString()));
        scopes.forEach((k, v) -> out.put(k, v.snapshot()));
        return out;
    }

    /** The sum over every scope (kept as events happen, not summed on each read). */
    public Counts totals() {
        return total.snapshot();
    }

    /** The first reason per service scope for calls that were lost, sorted by scope. */
    public Map<String, String> skipped() {
        Map<String, String> out = new TreeMap<>();
        skipped.forEach((k, v) -> out.put(k.toString(), v));
        return Collections.unmodifiableMap(new LinkedHashMap<>(out));
    }

    /** Forgets every scope and the totals; counters handed out before stop counting here. */
    public void clear() {
        scopes.values().forEach(ScopeCounters::detach);
        scopes.clear();
        skipped.clear();
        total.reset();
    }
}
