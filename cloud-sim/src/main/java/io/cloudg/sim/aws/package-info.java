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
 * <p>The breadth cloudg's collector catalog reads (about thirty more services: Config, GuardDuty, Security Hub,
 * Glue, SageMaker, WAFv2...) is declared as data in {@link io.cloudg.sim.aws.ModelCatalog}, one line per
 * operation, and served by {@link io.cloudg.sim.aws.ModelOperations} from the SDK model: request and response
 * classes found on the client interface, REST routes read from the SDK's own marshaller bindings, paging
 * members found in the model, items assembled from member assignments ({@link io.cloudg.sim.aws.ModelShapes}).
 * ELB and ELBv2 (and API Gateway v1 and v2) share a signing name; the query {@code Version} (the REST route)
 * tells them apart.
 *
 * <p>What cloudg's security checks read is served too, from {@link io.cloudg.sim.estate.AwsSecurity}:
 * security groups' rules in DescribeSecurityGroups, S3's GetPublicAccessBlock, GetBucketPolicyStatus and
 * GetBucketAcl, IAM's ListMFADevices. S3 answers a per-bucket call signed for another region than the
 * bucket's with 301 {@code PermanentRedirect} and {@code x-amz-bucket-region}, as S3 does; an S3 client with
 * {@code crossRegionAccessEnabled(true)} re-sends it to the same endpoint signed for the bucket's region.
 * Where a bucket is can also be read as S3 tells it without GetBucketLocation: ListBuckets' {@code BucketRegion}
 * per bucket, and HeadBucket's {@code x-amz-bucket-region}, sent on a 403 too (HEAD answers have no body).
 */
package io.cloudg.sim.aws;
