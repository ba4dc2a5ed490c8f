package io.cloudg.resilience.report;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.cloudg.resilience.spi.Scope;
import io.cloudg.resilience.spi.BreakerView;
import io.cloudg.resilience.spi.LeafView;
import io.cloudg.resilience.spi.StoreSnapshot;
import io.cloudg.resilience.spi.StoreStatus;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The throttling block of a run: {@code totals}, one-line {@code messages}, {@code skipped} reasons,
 * per-service {@code scopes}, and, from the governor's state when the report was made,
 * {@code breakers} and {@code slowed_buckets} keyed at bucket granularity.
 *
 * <p>A run attaches it only when {@link #eventful()}: a throttle, a transient error, a give-up, a
 * rejection, a breaker trip, or at least a second spent waiting for tokens, or time spent with the shared
 * (Redis) governor out of reach.
 *
 * <p>{@code governor} and {@code degraded_seconds} appear only for a shared store: {@code "governor":
 * "degraded"} when the fleet-wide state could not be reached at some point (calls were then paced locally
 * at a conservative share), with the time spent so; {@code "governor": "redis"} otherwise. Absent for the
 * in-memory governor.
 */
@JsonPropertyOrder({"governor", "degraded_seconds", "totals", "messages", "skipped", "scopes", "breakers",
        "slowed_buckets"})
public record ThrottlingReport(
        @JsonProperty("totals") Counts totals,
        @JsonProperty("messages") List<String> messages,
        @JsonProperty("skipped") Map<String, String> skipped,
        @JsonProperty("scopes") Map<String, Counts> scopes,
        @JsonProperty("breakers") Map<String, BreakerEntry> breakers,
        @JsonProperty("slowed_buckets") Map<String, SlowedBucket> slowedBuckets,
        @JsonIgnore StoreStatus governor) {

    /** A scope that was never in trouble gets a "waited" message from this much total waiting. */
    public static final long WAIT_MESSAGE_NANOS = 10_000_000_000L;

    public ThrottlingReport {
        messages = List.copyOf(messages);
        skipped = Collections.unmodifiableMap(new LinkedHashMap<>(skipped));
        scopes = Collections.unmodifiableMap(new LinkedHashMap<>(scopes));
        breakers = Collections.unmodifiableMap(new LinkedHashMap<>(breakers));
        slowedBuckets = Collections.unmodifiableMap(new LinkedHashMap<>(slowedBuckets));
    }

    /** A report without a shared-store status (the in-memory governor). */
    public ThrottlingReport(Counts totals, List<String> messages, Map<String, String> skipped, Map<String, Counts> scopes,
                            Map<String, BreakerEntry> breakers, Map<String, SlowedBucket> slowedBuckets) {
        this(totals, messages, skipped, scopes, breakers, slowedBuckets, null);
    }

    /** This report with the state store's status attached (null or empty: none). */
    public ThrottlingReport withGovernor(StoreStatus status) {
        return new ThrottlingReport(totals, messages, skipped, scopes, breakers, slowedBuckets, status);
    }

    /** {@code redis} or {@code degraded} for a shared store; null (absent) for the in-memory one. */
    @JsonProperty("governor")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public String governorMode() {
        return governor == null ? null : governor.mode();
    }

    /** Seconds the shared store was out of reach, to the millisecond; absent unless it ever was. */
    @JsonProperty("degraded_seconds")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public Double degradedSeconds() {
        return governor == null || !governor.everDegraded() ? null : Math.round(governor.degradedNanos() / 1e6) / 1e3;
    }

    /** Whether anything happened that a user should hear about. */
    @JsonIgnore
    public boolean eventful() {
        return totals.eventful() || !skipped.isEmpty() || (governor != null && governor.everDegraded());
    }

    /**
     * The short form for {@code summary.throttling}: the totals, plus how many buckets were slowed,
     * breakers were not closed and scopes lost calls.
     */
    public Map<String, Object> summary() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("throttled", totals.throttled());
        m.put("retries", totals.retries());
        m.put("gave_up", totals.gaveUp());
        m.put("rejected", totals.rejected());
        m.put("breaker_trips", totals.breakerTrips());
        m.put("wait_seconds", totals.waitSeconds());
        m.put("slowed_buckets", slowedBuckets.size());
        m.put("skipped_scopes", skipped.size());
        if (governor != null) {
            m.put("governor", governor.mode());
        }
        return m;
    }

    /** Builds the report from a run's counters and the governor's state at the end of the run. */
    public static ThrottlingReport build(ThrottlingStats stats, StoreSnapshot snapshot, long now) {
        Map<Scope, Counts> byScope = stats.countsByScope();
        Map<String, SlowedBucket> slowed = new TreeMap<>();
        Map<Scope, Double> slowestByService = new LinkedHashMap<>();
        for (LeafView l : snapshot.leaves()) {
            if (l.slowed()) {
                slowed.put(l.leaf().toString(), new SlowedBucket(round3(l.rateRps()), round3(l.ceilingRps()), l.throttles()));
                slowestByService.merge(l.leaf().withoutOperation(), l.rateRps(), Math::min);
            }
        }
        Map<String, BreakerEntry> breakers = new TreeMap<>();
        for (BreakerView b : snapshot.breakers()) {
            if (b.troubled()) {
                breakers.put(b.leaf().toString(), new BreakerEntry(b.phase().name(), b.failures(), b.trips(),
                        round3(b.cooldownNanos() / 1e9), round3(b.retryInNanos() / 1e9)));
            }
        }
        List<String> messages = new ArrayList<>();
        Map<String, Counts> scopes = new LinkedHashMap<>();
        Counts totals = Counts.ZERO;
        for (Map.Entry<Scope, Counts> e : byScope.entrySet()) {
            Counts c = e.getValue();
            totals = totals.plus(c);
            if (c.eventful()) {
                scopes.put(e.getKey().toString(), c);
            }
            String line = message(e.getKey(), c, slowestByService.get(e.getKey()));
            if (line != null) {
                messages.add(line);
            }
        }
        return new ThrottlingReport(totals, messages, stats.skipped(), scopes, breakers, slowed);
    }

    /** The one-line message for a scope, or null if there is nothing to say. */
    static String message(Scope scope, Counts c, Double slowestRate) {
        if (c.troubled()) {
            List<String> parts = new ArrayList<>();
            if (c.throttled() > 0) {
                parts.add("throttled " + c.throttled() + "x");
            }
            if (slowestRate != null) {
                parts.add("slowed to " + rate(slowestRate) + " rps");
            }
            if (c.transientErrors() > 0) {
                parts.add(c.transientErrors() + " transient errors");
            }
            if (c.retries() > 0) {
                parts.add(c.retries() + " retries");
            }
            if (c.gaveUp() > 0) {
                parts.add(c.gaveUp() + " calls gave up");
            }
            if (c.rejected() > 0) {
                parts.add(c.rejected() + " calls rejected by open circuit");
            }
            if (c.breakerTrips() > 0) {
                parts.add("circuit opened " + c.breakerTrips() + "x");
            }
            return scope + ": " + String.join(", ", parts);
        }
        if (c.waitNanos() >= WAIT_MESSAGE_NANOS) {
            return scope + ": waited " + String.format(Locale.ROOT, "%.1f", c.waitNanos() / 1e9) + "s for rate limit";
        }
        return null;
    }

    static String rate(double rps) {
        return String.format(Locale.ROOT, rps >= 1 ? "%.1f" : "%.2f", rps);
    }

    private static double round3(double v) {
        return Math.round(v * 1000.0) / 1000.0;
    }
}
