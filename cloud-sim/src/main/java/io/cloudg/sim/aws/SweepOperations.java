package io.cloudg.sim.aws;

import static io.cloudg.sim.aws.AwsService.CLOUDCONTROL;
import static io.cloudg.sim.aws.AwsService.TAGGING;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cloudg.sim.estate.AwsResource;
import io.cloudg.sim.core.AwsType;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.core.SdkPojo;
import software.amazon.awssdk.services.cloudcontrol.model.ListResourcesRequest;
import software.amazon.awssdk.services.cloudcontrol.model.ListResourcesResponse;
import software.amazon.awssdk.services.cloudcontrol.model.ResourceDescription;
import software.amazon.awssdk.services.resourcegroupstaggingapi.model.GetResourcesRequest;
import software.amazon.awssdk.services.resourcegroupstaggingapi.model.GetResourcesResponse;
import software.amazon.awssdk.services.resourcegroupstaggingapi.model.ResourceTagMapping;
import software.amazon.awssdk.services.resourcegroupstaggingapi.model.Tag;

/**
 * The two sweeps: Cloud Control ListResources (one type per call) and Resource Groups Tagging
 * GetResources (every tagged resource of the region).
 *
 * <p>Cloud Control returns each type's primary identifier, which equals the truth id except for
 * {@code AWS::ECS::Cluster} (cluster name), {@code AWS::CloudTrail::Trail} (trail name) and {@code AWS::EC2::EIP}
 * ({@code publicIp|allocationId}). Global types are listed from {@code us-east-1} only, S3 buckets in
 * their own region, accounts only for the management account. {@code AWS::EC2::Snapshot} and
 * {@code AWS::EC2::Image} are not CloudFormation types: Cloud Control answers TypeNotFoundException, as it
 * does for malformed names; other well-formed names the estate does not model list as empty.
 *
 * <p>Tagging returns the ARN of every regional resource in the region and of the S3 buckets located there
 * (all carry a {@code Name} tag), filtered by {@code ResourceTypeFilters} such as {@code ec2:instance} or
 * {@code s3}.
 */
final class SweepOperations {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<AwsType> NOT_IN_CLOUD_CONTROL = Set.of(AwsType.EC2_SNAPSHOT, AwsType.EC2_IMAGE);

    private SweepOperations() {
    }

    static void register(OpTable t) {
        t.op(CLOUDCONTROL, "ListResources", ListResourcesRequest::builder, OpTable.then(
            new Listing(ListResourcesResponse::builder, "ResourceDescriptions", Paging.token("MaxResults", 50, 1, 100),
                SweepOperations::cloudControlSource,
                (c, r) -> ResourceDescription.builder().identifier(cloudControlId(r)).properties(properties(r)).build()),
            (call, req, resp) -> ((ListResourcesResponse) resp).toBuilder()
                .typeName(((ListResourcesRequest) req).typeName()).build()));

        t.op(TAGGING, "GetResources", GetResourcesRequest::builder, new Listing(GetResourcesResponse::builder,
            "ResourceTagMappingList", Paging.tokens("PaginationToken", "PaginationToken", "ResourcesPerPage", 100, 1, 100),
            SweepOperations::taggedSource,
            (c, r) -> ResourceTagMapping.builder().resourceARN(r.arn()).tags(taggingTags(r)).build()));
    }

    /** Name, the simulator's type tag, and the {@code env} an estate generation set. */
    private static List<Tag> taggingTags(AwsResource r) {
        List<Tag> tags = new ArrayList<>(3);
        tags.add(Tag.builder().key("Name").value(r.name()).build());
        tags.add(Tag.builder().key("cloudg:sim-type").value(r.type().cfnType()).build());
        if (r.env() != null) {
            tags.add(Tag.builder().key("env").value(r.env()).build());
        }
        return tags;
    }

    private static List<AwsResource> cloudControlSource(AwsCall call, SdkPojo request) {
        String typeName = ((ListResourcesRequest) request).typeName();
        if (typeName == null || !typeName.matches("[A-Za-z0-9]+::[A-Za-z0-9]+::[A-Za-z0-9]+")) {
            throw AwsErrors.client("TypeNotFoundException", "The type '" + typeName + "' cannot be found.", 400);
        }
        AwsType type = AwsType.byCfnType(typeName);
        if (type != null && NOT_IN_CLOUD_CONTROL.contains(type)) {
            throw AwsErrors.client("TypeNotFoundException", "The type '" + typeName + "' cannot be found.", 400);
        }
        if (type == null) {
            return List.of();
        }
        switch (type.placement()) {
            case GLOBAL -> {
                if (!"us-east-1".equals(call.region())) {
                    return List.of();
                }
                if (type == AwsType.ORGANIZATIONS_ACCOUNT) {
                    if (!call.principal().management()) {
                        return List.of();
                    }
                    return call.estate().organizationAccounts();
                }
                return call.estate().list(call.account(), call.region(), type);
            }
            case ACCOUNT -> {
                return call.estate().list(call.account(), call.region(), type).stream()
                    .filter(r -> r.region().equals(call.region())).toList();
            }
            default -> {
                return call.estate().list(call.account(), call.region(), type);
            }
        }
    }

    static String cloudControlId(AwsResource r) {
        return switch (r.type()) {
            case ECS_CLUSTER, CLOUDTRAIL_TRAIL -> r.name();
            case EC2_EIP -> Ec2Operations.publicIp(r) + "|" + r.id();
            default -> r.id();
        };
    }

    private static String properties(AwsResource r) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("Arn", r.arn());
        p.put("Name", r.name());
        if (r.vpcId() != null) {
            p.put("VpcId", r.vpcId());
        }
        if (r.subnetId() != null) {
            p.put("SubnetId", r.subnetId());
        }
        p.put("Tags", r.env() == null ? List.of(Map.of("Key", "Name", "Value", r.name()))
            : List.of(Map.of("Key", "Name", "Value", r.name()), Map.of("Key", "env", "Value", r.env())));
        try {
            return JSON.writeValueAsString(p);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<AwsResource> taggedSource(AwsCall call, SdkPojo request) {
        GetResourcesRequest req = (GetResourcesRequest) request;
        List<String> filters = req.hasResourceTypeFilters() ? req.resourceTypeFilters() : List.of();
        Collection<String> arns = req.hasResourceARNList() ? req.resourceARNList() : null;
        List<AwsResource> out = new ArrayList<>();
        for (AwsType t : AwsType.values()) {
            List<AwsResource> candidates;
            if (t.placement() == AwsType.Placement.REGIONAL) {
                candidates = call.estate().list(call.account(), call.region(), t);
            } else if (t.placement() == AwsType.Placement.ACCOUNT) {
                candidates = call.estate().list(call.account(), call.region(), t).stream()
                    .filter(r -> r.region().equals(call.region())).toList();
            } else {
                continue;
            }
            for (AwsResource r : candidates) {
                if ((filters.isEmpty() || matchesTypeFilter(r.arn(), filters)) && (arns == null || arns.contains(r.arn()))) {
                    out.add(r);
                }
            }
        }
        return out;
    }

    /** {@code service} or {@code service:resourceType} against {@code arn:aws:service:region:account:type/...}. */
    static boolean matchesTypeFilter(String arn, List<String> filters) {
        String[] p = arn.split(":", 6);
        String service = p[2];
        String resource = p.length > 5 ? p[5] : "";
        int cut = resource.indexOf('/');
        int colon = resource.indexOf(':');
        if (colon >= 0 && (cut < 0 || colon < cut)) {
            cut = colon;
        }
        String resourceType = cut < 0 ? "" : resource.substring(0, cut);
        for (String f : filters) {
            int i = f.indexOf(':');
            if (i < 0 ? f.equals(service) : f.substring(0, i).equals(service) && f.substring(i + 1).equals(resourceType)) {
                return true;
            }
        }
        return false;
    }
}
