/**
 * AWS: the governed SDK clients ({@link io.cloudg.aws.AwsClients}, {@link io.cloudg.aws.GovernedAwsCalls}:
 * the SDK keeps its adaptive retry loop, the governor paces, breaks and budgets every attempt), the error
 * inspector that teaches the classifier AWS exceptions, discovery and planning
 * ({@link io.cloudg.aws.AwsProvider}: STS, Organizations, DescribeRegions, one task per account x region),
 * and the collector catalog.
 *
 * <p>Collectors are data: {@code collectors.yaml} holds one entry per collector ({@link io.cloudg.aws.CollectorSpec}:
 * the list call, where the items are, identity, tags, per-item calls, derived attributes), read through the
 * SDK's own model ({@link io.cloudg.aws.SdkModel}: operations linked as method handles by their API names and
 * the SDK's naming convention, never by reflecting over a whole client interface, which would load every
 * request and response class of the service at start; requests built and answers walked and serialized through {@code SdkPojo.sdkFields()}), and run by one
 * generic {@link io.cloudg.aws.AwsCollector}. {@link io.cloudg.aws.AwsServices} maps a service key to its client
 * and IAM prefix; {@link io.cloudg.aws.AwsPermissions} generates the permissions reference and the
 * least-privilege policy from the catalog, and {@link io.cloudg.aws.AwsCallShapes} tells the scheduler how each
 * collector's calls grow with what it finds. Per-item calls run a bounded window at a time on the clients' item
 * threads, each governed on its own operation's leaf; one that fails leaves what it would have read out of
 * the asset (never a plausible default), says so in {@code detail_errors}, and makes the entry PARTIAL.
 *
 * <p>The SDK parses XML answers (EC2, IAM, SQS, S3...) with whatever StAX reader
 * {@code XMLInputFactory.newInstance()} finds: the engine ships Woodstox for it, whose reader costs far less to
 * create per answer than the JDK's.
 */
package io.cloudg.aws;
