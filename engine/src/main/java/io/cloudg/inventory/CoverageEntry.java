package io.cloudg.inventory;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One service entry of one coverage record, flattened: the line of {@code coverage.jsonl} and the row of
 * the PostgreSQL {@code coverage} table ({@code {"provider":"aws","account_id":"1234...","region":"us-east-1",
 * "service":"subnets","status":"PARTIAL","asset_count":0,"error":"throttled: ..."}}).
 */
@JsonPropertyOrder({"provider", "account_id", "region", "service", "status", "asset_count", "error"})
@JsonInclude(JsonInclude.Include.ALWAYS)
public record CoverageEntry(
        @JsonProperty("provider") String provider,
        @JsonProperty("account_id") String accountId,
        @JsonProperty("region") String region,
        @JsonProperty("service") String service,
        @JsonProperty("status") CoverageStatus status,
        @JsonProperty("asset_count") long assetCount,
        @JsonProperty("error") String error) {

    public CoverageEntry {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(accountId, "accountId");
        Objects.requireNonNull(region, "region");
        Objects.requireNonNull(service, "service");
        Objects.requireNonNull(status, "status");
    }

    public static CoverageEntry of(CoverageRecord record, ServiceCoverage s) {
        return new CoverageEntry(record.provider(), record.accountId(), record.region(), s.service(), s.status(),
                s.assetCount(), s.error());
    }

    /** Every entry of {@code records}, in record order then entry order. */
    public static List<CoverageEntry> flatten(List<CoverageRecord> records) {
        List<CoverageEntry> out = new ArrayList<>();
        for (CoverageRecord r : records) {
            for (ServiceCoverage s : r.services()) {
                out.add(of(r, s));
            }
        }
        return out;
    }

    /** Entries grouped back into records, in the order their records first appear. */
    public static List<CoverageRecord> records(List<CoverageEntry> entries) {
        Map<String, List<CoverageEntry>> byRecord = new LinkedHashMap<>();
        for (CoverageEntry e : entries) {
            byRecord.computeIfAbsent(e.recordId(), k -> new ArrayList<>()).add(e);
        }
        List<CoverageRecord> out = new ArrayList<>();
        for (List<CoverageEntry> es : byRecord.values()) {
            CoverageEntry f = es.get(0);
            out.add(new CoverageRecord(f.provider(), f.accountId(), f.region(), es.stream().map(CoverageEntry::coverage).toList()));
        }
        return out;
    }

    public ServiceCoverage coverage() {
        return new ServiceCoverage(service, status, assetCount, error);
    }

    /** The record this entry belongs to: {@code aws/123456789012/us-east-1}. */
    @JsonIgnore
    public String recordId() {
        return provider + "/" + accountId + "/" + region;
    }

    /** The entry's identity across runs: {@code aws/123456789012/us-east-1/subnets}. */
    @JsonIgnore
    public String id() {
        return recordId() + "/" + service;
    }
}
