/**
 * AWS: the governed SDK clients ({@link io.cloudg.aws.AwsClients}, {@link io.cloudg.aws.GovernedAwsCalls}:
 * the SDK keeps its adaptive retry loop, the governor paces, breaks and budgets every attempt), the error
 * inspector that teaches the classifier AWS exceptions, discovery and planning
 * ({@link io.cloudg.aws.AwsProvider}: STS, Organizations, DescribeRegions, one task per account x region),
 * and the declarative collector catalog ({@link io.cloudg.aws.AwsCatalog}). A collector's per-item calls
 * (one DescribeImageAttribute per AMI) run a bounded window at a time on the clients' item threads, so a
 * large region is held by its quota rather than by round trips; the governor still paces every one.
 */
package io.cloudg.aws;
