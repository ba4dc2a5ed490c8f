package io.cloudg.sim.config;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.cloudg.sim.quota.Limit;
import io.cloudg.sim.quota.Quota;
import io.cloudg.sim.quota.WindowLimit;
import java.util.Locale;

/**
 * One line of the simulator's quota table: which limit, how large, and where the number comes from. Served
 * at {@code GET /_sim/quotas} and listed in {@code docs/cloud-sim.md}.
 *
 * @param key        the estate-file key that overrides it ({@code ec2.unpaginated}, {@code arm_reads},
 *                   {@code ListAssets.organization}, ...)
 * @param scope      what one bucket covers ({@code account x region x action}, {@code consumer project})
 * @param quota      the limit in effect
 * @param provenance whether the provider documents it or the simulator guesses it
 * @param source     the document it comes from, or why it is guessed
 * @param overridden whether the estate file changed it
 */
@JsonPropertyOrder({"provider", "key", "scope", "model", "rate_per_second", "capacity", "window_seconds", "provenance",
    "source", "overridden"})
public record QuotaEntry(@JsonProperty("provider") String provider, @JsonProperty("key") String key,
                         @JsonProperty("scope") String scope, @JsonIgnore Quota quota,
                         @JsonIgnore Provenance provenance, @JsonProperty("source") String source,
                         @JsonProperty("overridden") boolean overridden) {

    /** Where a number comes from. */
    public enum Provenance {
        /** Published by the provider. */
        DOCUMENTED,
        /** Not published: chosen at or below cloudg's own built-in rate, so a governor cannot count on slack. */
        GUESSED;

        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    @JsonProperty("provenance")
    String provenanceId() {
        return overridden ? "configured" : provenance.id();
    }

    @JsonProperty("model")
    String model() {
        return quota instanceof WindowLimit ? "fixed_window" : ((Limit) quota).refill().name().toLowerCase(Locale.ROOT)
            .replace("continuous", "token_bucket").replace("whole_second", "token_bucket_whole_second");
    }

    @JsonProperty("rate_per_second")
    double rate() {
        return quota.ratePerSecond();
    }

    @JsonProperty("capacity")
    double capacity() {
        return quota.capacity();
    }

    @JsonProperty("window_seconds")
    Double windowSeconds() {
        return quota instanceof WindowLimit w ? w.windowNanos() / 1e9 : null;
    }
}
