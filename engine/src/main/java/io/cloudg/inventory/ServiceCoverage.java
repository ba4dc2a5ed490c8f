package io.cloudg.inventory;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * The coverage of one collector in one account x region:
 * {@code {"service": "subnets", "status": "PARTIAL", "asset_count": 0, "error": "throttled: ..."}}.
 */
@JsonPropertyOrder({"service", "status", "asset_count", "error"})
@JsonInclude(JsonInclude.Include.ALWAYS)
public record ServiceCoverage(
        @JsonProperty("service") String service,
        @JsonProperty("status") CoverageStatus status,
        @JsonProperty("asset_count") long assetCount,
        @JsonProperty("error") String error) {

    public static ServiceCoverage success(String service, long count) {
        return new ServiceCoverage(service, CoverageStatus.SUCCESS, count, null);
    }
}
