/**
 * AWS: one HTTP endpoint for every service and region.
 *
 * <p>{@link io.cloudg.sim.aws.AwsFrontend} identifies the service from the SigV4 credential scope (else the
 * {@code X-Amz-Target} prefix, the query {@code Version}, or the REST route), the operation, the region and
 * the calling account (access keys issued by the simulator's STS map to the assumed account; any other key
 * is the management account). The {@link io.cloudg.sim.aws.AwsCatalog} is data: each
 * {@link io.cloudg.sim.aws.AwsOperation} names the SDK request builder and a handler returning an SDK
 * response object; most handlers are a {@link io.cloudg.sim.aws.Listing} (resource type, list member,
 * {@link io.cloudg.sim.aws.Paging} in the operation's own member names, item factory), cut into pages by the
 * shared {@link io.cloudg.sim.paging.Pager}. Strict realism leaves {@code Retry-After} off throttles except
 * where the service's model carries it ({@link io.cloudg.sim.aws.AwsService#sendsRetryAfter()}) and charges
 * S3 calls that address a bucket to that bucket. The generic
 * {@code wire} package reads and writes those SDK objects in every protocol from their
 * {@code sdkFields()}, and {@link io.cloudg.sim.aws.AwsErrors} builds every error in the service's own codes,
 * rendered by {@link io.cloudg.sim.aws.AwsWire} in the protocol's error shape.
 *
 * <p>Services and protocols as SDK 2.40.2 speaks them: EC2 query (ec2); awsQuery (sts, iam, rds, sns,
 * cloudwatch, cloudformation, elbv2, autoscaling, elasticache); awsJson 1.0 (cloudcontrol, dynamodb, sqs)
 * and 1.1 (organizations, tagging, kms, ecs, logs, ssm, secretsmanager, cloudtrail, ecr, acm); restJson
 * (lambda, eks, apigateway, efs); restXml (s3 path style, route53, cloudfront). Signatures are not
 * verified.
 *
 * <p>What cloudg's security checks read is served too, from {@link io.cloudg.sim.estate.AwsSecurity}:
 * security groups' rules in DescribeSecurityGroups, S3's GetPublicAccessBlock, GetBucketPolicyStatus and
 * GetBucketAcl, IAM's ListMFADevices. S3 answers a per-bucket call signed for another region than the
 * bucket's with 301 {@code PermanentRedirect} and {@code x-amz-bucket-region}, as S3 does; an S3 client with
 * {@code crossRegionAccessEnabled(true)} re-sends it to the same endpoint signed for the bucket's region.
 */
package io.cloudg.sim.aws;
