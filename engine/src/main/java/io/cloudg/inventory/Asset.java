package io.cloudg.inventory;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One resource found in a cloud.
 *
 * @param provider aws, azure or gcp
 * @param accountId the AWS account, Azure subscription or GCP project (or {@code organizations/N})
 * @param region the region, {@code global} for global services
 * @param service the API that listed it ({@code ec2}, {@code iam}, {@code cloudasset}...)
 * @param type the resource type: CloudFormation style for AWS ({@code AWS::EC2::VPC}), the ARM type for
 *        Azure, the Cloud Asset type for GCP
 * @param id the identifier exactly as the listing API returns it
 * @param name a human name if the API gives one, else null
 * @param arn the ARN (AWS) or full resource name, if known
 * @param tags tags or labels, never null
 * @param attributes a few extra properties a collector found worth keeping (e.g. an AMI's launch
 *        permissions), never null
 */
@JsonPropertyOrder({"provider", "account_id", "region", "service", "type", "id", "name", "arn", "tags", "attributes"})
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Asset(
        @JsonProperty("provider") String provider,
        @JsonProperty("account_id") String accountId,
        @JsonProperty("region") String region,
        @JsonProperty("service") String service,
        @JsonProperty("type") String type,
        @JsonProperty("id") String id,
        @JsonProperty("name") String name,
        @JsonProperty("arn") String arn,
        @JsonProperty("tags") Map<String, String> tags,
        @JsonProperty("attributes") Map<String, Object> attributes) {

    public Asset {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(id, "id");
        tags = tags == null || tags.isEmpty() ? Map.of() : new TreeMap<>(tags);
        attributes = attributes == null || attributes.isEmpty() ? Map.of() : new TreeMap<>(attributes);
    }

    /** The identity used to tell assets apart: provider, account, region, type and id. */
    public String key() {
        return provider + "|" + accountId + "|" + region + "|" + type + "|" + id;
    }
}
