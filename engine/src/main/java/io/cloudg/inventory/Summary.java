package io.cloudg.inventory;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The numbers of a run: assets; accounts (provider accounts mapped: AWS accounts, Azure subscriptions, GCP
 * projects, never the tenant or organization that discovered them); regions (distinct named regions);
 * coverage records and service entries (one per account x region x collector) by status; the same per
 * provider; the run time; the accounts discovery found but the map left out ({@code skipped_accounts}: suspended,
 * excluded by the configuration; they do not make the map incomplete); and under {@code throttling} the short
 * form of the throttling block (absent when nothing eventful happened).
 */
@JsonPropertyOrder({"assets", "accounts", "regions", "records", "services", "providers", "skipped_accounts",
        "duration_seconds", "throttling"})
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Summary(
        @JsonProperty("assets") long assets,
        @JsonProperty("accounts") int accounts,
        @JsonProperty("regions") int regions,
        @JsonProperty("records") Map<CoverageStatus, Integer> records,
        @JsonProperty("services") Map<CoverageStatus, Integer> services,
        @JsonProperty("providers") Map<String, ProviderSummary> providers,
        @JsonProperty("skipped_accounts") List<SkippedAccount> skippedAccounts,
        @JsonProperty("duration_seconds") double durationSeconds,
        @JsonProperty("throttling") Map<String, Object> throttling) {

    public Summary {
        skippedAccounts = skippedAccounts == null ? List.of() : List.copyOf(skippedAccounts);
    }

    /**
     * One provider's numbers: its assets (null where a fleet's results did not say), accounts (AWS accounts,
     * Azure subscriptions, GCP projects), regions (AWS) and service entries by status.
     */
    @JsonPropertyOrder({"assets", "accounts", "regions", "services"})
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record ProviderSummary(@JsonProperty("assets") Long assets, @JsonProperty("accounts") int accounts,
                                  @JsonProperty("regions") int regions,
                                  @JsonProperty("services") Map<CoverageStatus, Integer> services) {
    }

    public static Summary of(long assets, List<CoverageRecord> coverage, double durationSeconds,
                             Map<String, Object> throttling) {
        return of(assets, Map.of(), coverage, durationSeconds, throttling);
    }

    /** {@link #of(long, List, double, Map)} with each provider's asset count. */
    public static Summary of(long assets, Map<String, Long> assetsByProvider, List<CoverageRecord> coverage,
                             double durationSeconds, Map<String, Object> throttling) {
        return of(assets, assetsByProvider, coverage, List.of(), durationSeconds, throttling);
    }

    /** With the accounts discovery skipped. */
    public static Summary of(long assets, Map<String, Long> assetsByProvider, List<CoverageRecord> coverage,
                             List<SkippedAccount> skipped, double durationSeconds, Map<String, Object> throttling) {
        Map<CoverageStatus, Integer> records = zero();
        Map<CoverageStatus, Integer> services = zero();
        TreeSet<String> accounts = new TreeSet<>();
        TreeSet<String> regions = new TreeSet<>();
        Map<String, TreeSet<String>> providerAccounts = new TreeMap<>();
        Map<String, TreeSet<String>> providerRegions = new TreeMap<>();
        Map<String, Map<CoverageStatus, Integer>> providerServices = new TreeMap<>();
        for (CoverageRecord r : coverage) {
            boolean discovery = "discovery".equals(r.region());
            providerAccounts.computeIfAbsent(r.provider(), p -> new TreeSet<>());
            providerRegions.computeIfAbsent(r.provider(), p -> new TreeSet<>());
            if (!discovery) {
                accounts.add(r.provider() + "/" + r.accountId());
                providerAccounts.get(r.provider()).add(r.accountId());
            }
            if (!"global".equals(r.region()) && !discovery) {
                regions.add(r.region());
                providerRegions.get(r.provider()).add(r.region());
            }
            records.merge(r.status(), 1, Integer::sum);
            Map<CoverageStatus, Integer> ps = providerServices.computeIfAbsent(r.provider(), p -> zero());
            for (ServiceCoverage s : r.services()) {
                services.merge(s.status(), 1, Integer::sum);
                ps.merge(s.status(), 1, Integer::sum);
            }
        }
        Map<String, ProviderSummary> providers = new TreeMap<>();
        providerServices.forEach((p, s) -> providers.put(p, new ProviderSummary(assetsByProvider.get(p),
                providerAccounts.get(p).size(), providerRegions.get(p).size(), s)));
        return new Summary(assets, accounts.size(), regions.size(), records, services, providers, skipped,
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
