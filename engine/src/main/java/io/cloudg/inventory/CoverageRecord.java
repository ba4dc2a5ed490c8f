package io.cloudg.inventory;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;

/** The coverage of one account x region: one entry per collector that ran there. */
@JsonPropertyOrder({"provider", "account_id", "region", "status", "services"})
public record CoverageRecord(
        @JsonProperty("provider") String provider,
        @JsonProperty("account_id") String accountId,
        @JsonProperty("region") String region,
        @JsonProperty("services") List<ServiceCoverage> services) {

    public CoverageRecord {
        services = List.copyOf(services);
    }

    /** The worst status of the services (SUCCESS for none). */
    @JsonProperty("status")
    public CoverageStatus status() {
        CoverageStatus worst = CoverageStatus.SUCCESS;
        for (ServiceCoverage s : services) {
            if (s.status().ordinal() > worst.ordinal()) {
                worst = s.status();
            }
        }
        return worst;
    }

    @JsonIgnore
    public long assetCount() {
        return services.stream().mapToLong(ServiceCoverage::assetCount).sum();
    }
}
