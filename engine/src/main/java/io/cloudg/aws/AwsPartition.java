package io.cloudg.aws;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import software.amazon.awssdk.regions.PartitionMetadata;
import software.amazon.awssdk.regions.Region;

/**
 * The partition of a region ({@code aws}, {@code aws-us-gov}, {@code aws-cn}...) from the SDK's own partition
 * metadata, and the ARNs cloudg builds in it: no ARN is written for the commercial partition alone, so a map of
 * GovCloud or China has the ARNs AWS gives there (the collector catalog's templates say {@code arn:{partition}:}).
 */
public final class AwsPartition {
    /**
     * Partition ids by region, looked up once each: the SDK finds a region's partition by matching every
     * partition's region regex (compiled anew on each look-up), and every collector job asks.
     */
    private static final Map<String, String> BY_REGION = new ConcurrentHashMap<>();

    private AwsPartition() {
    }

    /** The partition id of {@code region} ({@code us-gov-west-1} is {@code aws-us-gov}). */
    public static String of(String region) {
        return BY_REGION.computeIfAbsent(region, r -> PartitionMetadata.of(Region.of(r)).id());
    }

    /**
     * The ARN of role {@code roleName} (with its path, if any: {@code audit/Reader}) in {@code account} of
     * {@code partition}: {@code arn:PARTITION:iam::111122223333:role/audit/Reader}.
     */
    public static String roleArn(String partition, String account, String roleName) {
        String name = roleName.startsWith("/") ? roleName.substring(1) : roleName;
        return "arn:" + partition + ":iam::" + account + ":role/" + name;
    }
}
