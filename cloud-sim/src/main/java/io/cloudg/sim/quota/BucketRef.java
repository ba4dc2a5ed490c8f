package io.cloudg.sim.quota;

/**
 * Which bucket a call is charged to.
 *
 * @param key   stable name, e.g. {@code aws/111111111111/us-east-1/ec2/DescribeSubnets}
 * @param quota configured limit: a token bucket or a fixed window
 * @param name  the provider's name for this limit, as its throttling errors quote it (e.g. Cloud Asset's
 *              {@code ListAssetsRequestsPerMinutePerProject}); null when the provider names none
 */
public record BucketRef(String key, Quota quota, String name) {
    public BucketRef {
        if (key == null || quota == null) {
            throw new IllegalArgumentException("key and quota are required");
        }
    }

    public BucketRef(String key, Quota quota) {
        this(key, quota, null);
    }
}
