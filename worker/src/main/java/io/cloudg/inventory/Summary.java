package io.cloudg.inventory;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The numbers of a run: assets, accounts, regions, coverage records and service entries by status, the
 * run time, and under {@code throttling} the short form of the throttling block (absent when nothing
 * eventful happened).
 */
@JsonPropertyOrder({"assets", "accounts", "regions", "records", "services", "duration_seconds", "throttling"})
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Summary(
        @JsonProperty("assets") long assets,
        @JsonProperty("accounts") int accounts,
        @JsonProperty("regions") int regions,
        @JsonProperty("records") Map<CoverageStatus, Integer> records,
        @JsonProperty("services") Map<CoverageStatus, Integer> services,
        @JsonProperty("duration_seconds") double durationSeconds,
        @JsonProperty("throttling") Map<String, Object> throttling) {

    public static Summary of(long assets, List<CoverageRecord> coverage, double durationSeconds,
                             Map<String, Object> throttling) {
        Map<CoverageStatus, Integer> records = zero();
        Map<CoverageStatus, Integer> services = zero();
        TreeSet<String> accounts = new TreeSet<>();
        TreeSet<String> regions = new TreeSet<>();
        for (CoverageRecord r : coverage) {
            accounts.add(r.provider() + "/" + r.accountId());
            if (!"global".equals(r.region()) && !"discovery".equals(r.region())) {
                regions.add(r.region());
            }
            records.merge(r.status(), 1, Integer::sum);
            for (ServiceCoverage s : r.services()) {
                services.merge(s.status(), 1, Integer::sum);
            }
        }
        return new Summary(assets, accounts.size(), regions.size(), records, services,
                Math.round(durationSeconds * 1000) / 1000.0, throttling);
    }

    private static Map<CoverageStatus, Integer> zero() {
        Map<CoverageStatus, Integer> m = new EnumMap<>(CoverageStatus.class);
        for (CoverageStatus s : CoverageStatus.values()) {
            m.put(s, 0);
        }
        return m;
    }

    /** Every service entry SUCCESS. */
    public boolean complete() {
        return services.getOrDefault(CoverageStatus.PARTIAL, 0) == 0 && services.getOrDefault(CoverageStatus.FAILED, 0) == 0;
    }
}
