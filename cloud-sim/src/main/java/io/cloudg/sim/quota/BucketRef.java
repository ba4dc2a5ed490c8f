package io.cloudg.sim.quota;

/**
 * Which bucket a call is charged to.
 *
 * @param key   stable name, e.g. {@code aws/111111111111/us-east-1/ec2/DescribeSubnets}
 * @param limit configured rate and burst
 */
public record BucketRef(String key, Limit limit) {
}
