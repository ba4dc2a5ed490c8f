package io.cloudg.mcp.scan;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.cloudg.inventory.Asset;

/**
 * A failed check on one asset, naming the asset.
 *
 * @param check the check id
 * @param severity high, medium or low
 * @param provider the asset's provider
 * @param accountId its account
 * @param region its region
 * @param type its type
 * @param id its id
 * @param name its name, if any
 * @param arn its ARN, if known
 * @param detail what is wrong
 */
@JsonPropertyOrder({"check", "severity", "provider", "account_id", "region", "type", "id", "name", "arn", "detail"})
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Finding(
        @JsonProperty("check") String check,
        @JsonProperty("severity") String severity,
        @JsonProperty("provider") String provider,
        @JsonProperty("account_id") String accountId,
        @JsonProperty("region") String region,
        @JsonProperty("type") String type,
        @JsonProperty("id") String id,
        @JsonProperty("name") String name,
        @JsonProperty("arn") String arn,
        @JsonProperty("detail") String detail) {

    static Finding of(Check c, Asset a, String detail) {
        return new Finding(c.id(), c.severity(), a.provider(), a.accountId(), a.region(), a.type(), a.id(), a.name(),
                a.arn(), detail);
    }
}
