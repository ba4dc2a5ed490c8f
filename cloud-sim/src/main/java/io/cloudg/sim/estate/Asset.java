package io.cloudg.sim.estate;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.cloudg.sim.estate.Lifetime;

/**
 * One asset of the ground truth.
 *
 * @param provider {@code aws}, {@code azure} or {@code gcp}
 * @param account  AWS account id; Azure subscription id; GCP project id ({@code organizations/N} for
 *                 organization-level assets)
 * @param region   AWS region or {@code global}; Azure location ({@code global} for subscriptions); GCP
 *                 location
 * @param service  AWS botocore service name ({@code ec2}); Azure resource provider namespace
 *                 ({@code Microsoft.Compute}); GCP API ({@code compute})
 * @param type     CloudFormation type ({@code AWS::EC2::VPC}); ARM type; Cloud Asset type
 * @param id       the identifier exactly as the listing API returns it (AWS: see
 *                 {@link io.cloudg.sim.core.AwsType}; Azure: full ARM id; GCP: full asset name)
 * @param arn      AWS ARN (what Resource Groups Tagging returns); null elsewhere
 * @param churn    null for a stable asset (it exists throughout); for a churned one, whether it was
 *                 {@code created} or {@code deleted} while a map may be running and when ({@code at_ms} after
 *                 the simulator started). A correct map holds every stable asset and may or may not hold a
 *                 churned one. Omitted from the JSON when null.
 * @param tags     the tags (GCP: labels) an estate generation set on it ({@code env: gen-N}); empty (and omitted
 *                 from the JSON) for a resource no generation modified
 */
@JsonPropertyOrder({"provider", "account", "region", "service", "type", "id", "arn", "churn", "tags"})
public record Asset(String provider, String account, String region, String service, String type, String id,
                    String arn, @JsonInclude(JsonInclude.Include.NON_NULL) @JsonProperty("churn") Lifetime churn,
                    @JsonInclude(JsonInclude.Include.NON_EMPTY) @JsonProperty("tags") java.util.Map<String, String> tags) {

    public Asset {
        tags = tags == null ? java.util.Map.of() : java.util.Map.copyOf(tags);
    }

    /** A stable asset. */
    public Asset(String provider, String account, String region, String service, String type, String id, String arn) {
        this(provider, account, region, service, type, id, arn, null, java.util.Map.of());
    }

    /** An asset without generation tags. */
    public Asset(String provider, String account, String region, String service, String type, String id, String arn,
                 Lifetime churn) {
        this(provider, account, region, service, type, id, arn, churn, java.util.Map.of());
    }

    /** {@code provider|account|region|type|id}: what identifies an asset across generations and maps. */
    public String key() {
        return provider + "|" + account + "|" + region + "|" + type + "|" + id;
    }

    /** Whether it exists throughout (not churned). */
    public boolean stable() {
        return churn == null;
    }
}
