package io.cloudg.sim.aws;

import static io.cloudg.sim.aws.AwsService.ACM;
import static io.cloudg.sim.aws.AwsService.APIGATEWAY;
import static io.cloudg.sim.aws.AwsService.AUTOSCALING;
import static io.cloudg.sim.aws.AwsService.CLOUDFORMATION;
import static io.cloudg.sim.aws.AwsService.CLOUDFRONT;
import static io.cloudg.sim.aws.AwsService.CLOUDTRAIL;
import static io.cloudg.sim.aws.AwsService.CLOUDWATCH;
import static io.cloudg.sim.aws.AwsService.DYNAMODB;
import static io.cloudg.sim.aws.AwsService.ECR;
import static io.cloudg.sim.aws.AwsService.ECS;
import static io.cloudg.sim.aws.AwsService.EFS;
import static io.cloudg.sim.aws.AwsService.EKS;
import static io.cloudg.sim.aws.AwsService.ELASTICACHE;
import static io.cloudg.sim.aws.AwsService.ELBV2;
import static io.cloudg.sim.aws.AwsService.KMS;
import static io.cloudg.sim.aws.AwsService.LAMBDA;
import static io.cloudg.sim.aws.AwsService.LOGS;
import static io.cloudg.sim.aws.AwsService.RDS;
import static io.cloudg.sim.aws.AwsService.ROUTE53;
import static io.cloudg.sim.aws.AwsService.S3;
import static io.cloudg.sim.aws.AwsService.SECRETSMANAGER;
import static io.cloudg.sim.aws.AwsService.SNS;
import static io.cloudg.sim.aws.AwsService.SQS;
import static io.cloudg.sim.aws.AwsService.SSM;

import io.cloudg.sim.estate.AwsResource;
import io.cloudg.sim.estate.AwsSecurity;
import io.cloudg.sim.core.AwsType;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import software.amazon.awssdk.core.SdkPojo;

/**
 * The other AWS services the collectors read, one listing each (two for RDS and CloudTrail), with each
 * operation's real paging members, page-size limits and item shapes.
 */
final class ServiceOperations {
    private static final DateTimeFormatter LAMBDA_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSZ")
        .withZone(ZoneOffset.UTC);

    private ServiceOperations() {
    }

    static void register(OpTable t) {
        s3(t);

        t.rest(LAMBDA, "ListFunctions", "GET /2015-03-31/functions", null,
            software.amazon.awssdk.services.lambda.model.ListFunctionsRequest::builder,
            new Listing(software.amazon.awssdk.services.lambda.model.ListFunctionsResponse::builder, "Functions",
                Paging.tokens("Marker", "NextMarker", "MaxItems", 50, 1, 10000), Listing.Source.of(AwsType.LAMBDA_FUNCTION),
                (c, r) -> software.amazon.awssdk.services.lambda.model.FunctionConfiguration.builder()
                    .functionName(r.id()).functionArn(r.arn()).runtime("python3.12")
                    .role("arn:aws:iam::" + r.account() + ":role/lambda-exec").handler("app.handler").codeSize(1024L)
                    .lastModified(LAMBDA_TIME.format(r.created())).memorySize(128).timeout(3).version("$LATEST")
                    .packageType("Zip").architecturesWithStrings("x86_64").build()));

        Paging rdsPaging = Paging.tokens("Marker", "Marker", "MaxRecords", 100, 20, 100);
        t.op(RDS, "DescribeDBInstances", software.amazon.awssdk.services.rds.model.DescribeDbInstancesRequest::builder,
            new Listing(software.amazon.awssdk.services.rds.model.DescribeDbInstancesResponse::builder, "DBInstances",
                rdsPaging, OpTable.narrowedBy(AwsType.RDS_DB_INSTANCE, "DBInstanceIdentifier"),
                (c, r) -> software.amazon.awssdk.services.rds.model.DBInstance.builder().dbInstanceIdentifier(r.id())
                    .dbInstanceArn(r.arn()).dbInstanceClass("db.t3.micro").engine("postgres").dbInstanceStatus("available")
                    .instanceCreateTime(r.created()).availabilityZone(r.zone()).allocatedStorage(20)
                    .dbiResourceId("db-" + r.arn().hashCode()).build()));
        t.op(RDS, "DescribeDBClusters", software.amazon.awssdk.services.rds.model.DescribeDbClustersRequest::builder,
            new Listing(software.amazon.awssdk.services.rds.model.DescribeDbClustersResponse::builder, "DBClusters",
                rdsPaging, OpTable.narrowedBy(AwsType.RDS_DB_CLUSTER, "DBClusterIdentifier"),
                (c, r) -> software.amazon.awssdk.services.rds.model.DBCluster.builder().dbClusterIdentifier(r.id())
                    .dbClusterArn(r.arn()).engine("aurora-postgresql").status("available").clusterCreateTime(r.created())
                    .dbClusterResourceId("cluster-" + Integer.toHexString(r.arn().hashCode())).build()));

        t.op(DYNAMODB, "ListTables", software.amazon.awssdk.services.dynamodb.model.ListTablesRequest::builder,
            new Listing(software.amazon.awssdk.services.dynamodb.model.ListTablesResponse::builder, "TableNames",
                Paging.tokens("ExclusiveStartTableName", "LastEvaluatedTableName", "Limit", 100, 1, 100).withLastKey(),
                (call, req) -> call.estate().list(call.account(), call.region(), AwsType.DYNAMODB_TABLE).stream()
                    .sorted(Comparator.comparing(AwsResource::id)).toList(),
                (c, r) -> r.id()));

        t.list(SNS, "ListTopics", software.amazon.awssdk.services.sns.model.ListTopicsRequest::builder,
            software.amazon.awssdk.services.sns.model.ListTopicsResponse::builder, "Topics",
            Paging.fixed("NextToken", "NextToken", 100), AwsType.SNS_TOPIC,
            (c, r) -> software.amazon.awssdk.services.sns.model.Topic.builder().topicArn(r.id()).build());

        t.list(SQS, "ListQueues", software.amazon.awssdk.services.sqs.model.ListQueuesRequest::builder,
            software.amazon.awssdk.services.sqs.model.ListQueuesResponse::builder, "QueueUrls",
            Paging.token("MaxResults", 1000, 1, 1000), AwsType.SQS_QUEUE, (c, r) -> r.id());

        t.list(KMS, "ListKeys", software.amazon.awssdk.services.kms.model.ListKeysRequest::builder,
            software.amazon.awssdk.services.kms.model.ListKeysResponse::builder, "Keys",
            Paging.marker("Marker", "NextMarker", "Limit", 100, 1, 1000, "Truncated"), AwsType.KMS_KEY,
            (c, r) -> software.amazon.awssdk.services.kms.model.KeyListEntry.builder().keyId(r.id()).keyArn(r.arn()).build());

        t.list(ECS, "ListClusters", software.amazon.awssdk.services.ecs.model.ListClustersRequest::builder,
            software.amazon.awssdk.services.ecs.model.ListClustersResponse::builder, "clusterArns",
            Paging.tokens("nextToken", "nextToken", "maxResults", 100, 1, 100), AwsType.ECS_CLUSTER, (c, r) -> r.id());

        t.rest(EKS, "ListClusters", "GET /clusters", null, software.amazon.awssdk.services.eks.model.ListClustersRequest::builder,
            new Listing(software.amazon.awssdk.services.eks.model.ListClustersResponse::builder, "clusters",
                Paging.tokens("nextToken", "nextToken", "maxResults", 100, 1, 100), Listing.Source.of(AwsType.EKS_CLUSTER),
                (c, r) -> r.id()));

        t.list(CLOUDWATCH, "DescribeAlarms", software.amazon.awssdk.services.cloudwatch.model.DescribeAlarmsRequest::builder,
            software.amazon.awssdk.services.cloudwatch.model.DescribeAlarmsResponse::builder, "MetricAlarms",
            Paging.token("MaxRecords", 50, 1, 100), AwsType.CLOUDWATCH_ALARM,
            (c, r) -> software.amazon.awssdk.services.cloudwatch.model.MetricAlarm.builder().alarmName(r.id())
                .alarmArn(r.arn()).stateValue("OK").metricName("CPUUtilization").namespace("AWS/EC2")
                .comparisonOperator("GreaterThanThreshold").threshold(80.0).evaluationPeriods(3).period(300)
                .statistic("Average").stateUpdatedTimestamp(r.created()).actionsEnabled(true).build());

        t.list(LOGS, "DescribeLogGroups", software.amazon.awssdk.services.cloudwatchlogs.model.DescribeLogGroupsRequest::builder,
            software.amazon.awssdk.services.cloudwatchlogs.model.DescribeLogGroupsResponse::builder, "logGroups",
            Paging.tokens("nextToken", "nextToken", "limit", 50, 1, 50), AwsType.LOGS_LOG_GROUP,
            (c, r) -> software.amazon.awssdk.services.cloudwatchlogs.model.LogGroup.builder().logGroupName(r.id())
                .arn(r.arn() + ":*").logGroupArn(r.arn()).creationTime(r.created().toEpochMilli()).storedBytes(0L)
                .logGroupClass("STANDARD").build());

        t.rest(ROUTE53, "ListHostedZones", "GET /2013-04-01/hostedzone", "ListHostedZonesResponse",
            software.amazon.awssdk.services.route53.model.ListHostedZonesRequest::builder,
            OpTable.then(new Listing(software.amazon.awssdk.services.route53.model.ListHostedZonesResponse::builder,
                "HostedZones", Paging.marker("Marker", "NextMarker", "MaxItems", 100, 1, 100, "IsTruncated"),
                Listing.Source.of(AwsType.ROUTE53_HOSTED_ZONE),
                (c, r) -> software.amazon.awssdk.services.route53.model.HostedZone.builder().id("/hostedzone/" + r.id())
                    .name(r.name() + ".example.com.").callerReference(r.name()).resourceRecordSetCount(2L)
                    .config(software.amazon.awssdk.services.route53.model.HostedZoneConfig.builder().privateZone(false)
                        .build())
                    .build()),
                (call, request, resp) -> {
                    var req = (software.amazon.awssdk.services.route53.model.ListHostedZonesRequest) request;
                    return ((software.amazon.awssdk.services.route53.model.ListHostedZonesResponse) resp).toBuilder()
                        .maxItems(req.maxItems() != null ? req.maxItems() : "100")
                        .marker(req.marker() != null ? req.marker() : "").build();
                }));

        t.list(CLOUDFORMATION, "ListStacks", software.amazon.awssdk.services.cloudformation.model.ListStacksRequest::builder,
            software.amazon.awssdk.services.cloudformation.model.ListStacksResponse::builder, "StackSummaries",
            Paging.fixed("NextToken", "NextToken", 100), AwsType.CLOUDFORMATION_STACK,
            (c, r) -> software.amazon.awssdk.services.cloudformation.model.StackSummary.builder().stackId(r.id())
                .stackName(r.name()).creationTime(r.created()).stackStatus("CREATE_COMPLETE")
                .templateDescription("cloud-sim stack").build());
        t.op(CLOUDFORMATION, "DescribeStacks",
            software.amazon.awssdk.services.cloudformation.model.DescribeStacksRequest::builder,
            new Listing(software.amazon.awssdk.services.cloudformation.model.DescribeStacksResponse::builder, "Stacks",
                Paging.fixed("NextToken", "NextToken", 100),
                (call, req) -> {
                    List<AwsResource> found = OpTable.narrowedBy(AwsType.CLOUDFORMATION_STACK, "StackName").select(call, req);
                    Object name = io.cloudg.sim.aws.wire.Pojos.get(req, "StackName");
                    if (name != null && found.isEmpty()) {
                        throw AwsErrors.client("ValidationError", "Stack with id " + name + " does not exist", 400);
                    }
                    return found;
                },
                (c, r) -> software.amazon.awssdk.services.cloudformation.model.Stack.builder().stackId(r.id())
                    .stackName(r.name()).creationTime(r.created()).stackStatus("CREATE_COMPLETE")
                    .description("cloud-sim stack").build()));

        t.list(SSM, "DescribeParameters", software.amazon.awssdk.services.ssm.model.DescribeParametersRequest::builder,
            software.amazon.awssdk.services.ssm.model.DescribeParametersResponse::builder, "Parameters",
            Paging.token("MaxResults", 10, 1, 50), AwsType.SSM_PARAMETER,
            (c, r) -> software.amazon.awssdk.services.ssm.model.ParameterMetadata.builder().name(r.id()).arn(r.arn())
                .type("String").lastModifiedDate(r.created()).version(1L).tier("Standard").dataType("text").build());

        t.list(SECRETSMANAGER, "ListSecrets", software.amazon.awssdk.services.secretsmanager.model.ListSecretsRequest::builder,
            software.amazon.awssdk.services.secretsmanager.model.ListSecretsResponse::builder, "SecretList",
            Paging.token("MaxResults", 100, 1, 100), AwsType.SECRETSMANAGER_SECRET,
            (c, r) -> software.amazon.awssdk.services.secretsmanager.model.SecretListEntry.builder().arn(r.id())
                .name(r.name()).createdDate(r.created()).lastChangedDate(r.created()).description("cloud-sim secret")
                .build());

        t.list(CLOUDTRAIL, "DescribeTrails", software.amazon.awssdk.services.cloudtrail.model.DescribeTrailsRequest::builder,
            software.amazon.awssdk.services.cloudtrail.model.DescribeTrailsResponse::builder, "trailList", Paging.NONE,
            AwsType.CLOUDTRAIL_TRAIL, (c, r) -> software.amazon.awssdk.services.cloudtrail.model.Trail.builder()
                .name(r.name()).trailARN(r.id()).s3BucketName("trail-logs-" + r.account()).homeRegion(r.region())
                .isMultiRegionTrail(false).isOrganizationTrail(false).includeGlobalServiceEvents(true).build());
        t.list(CLOUDTRAIL, "ListTrails", software.amazon.awssdk.services.cloudtrail.model.ListTrailsRequest::builder,
            software.amazon.awssdk.services.cloudtrail.model.ListTrailsResponse::builder, "Trails",
            Paging.fixed("NextToken", "NextToken", 50), AwsType.CLOUDTRAIL_TRAIL,
            (c, r) -> software.amazon.awssdk.services.cloudtrail.model.TrailInfo.builder().trailARN(r.id()).name(r.name())
                .homeRegion(r.region()).build());

        t.op(ELBV2, "DescribeLoadBalancers",
            software.amazon.awssdk.services.elasticloadbalancingv2.model.DescribeLoadBalancersRequest::builder,
            new Listing(software.amazon.awssdk.services.elasticloadbalancingv2.model.DescribeLoadBalancersResponse::builder,
                "LoadBalancers", Paging.tokens("Marker", "NextMarker", "PageSize", 400, 1, 400),
                OpTable.narrowedBy(AwsType.ELBV2_LOAD_BALANCER, "LoadBalancerArns"),
                (c, r) -> software.amazon.awssdk.services.elasticloadbalancingv2.model.LoadBalancer.builder()
                    .loadBalancerArn(r.id()).loadBalancerName(r.name())
                    .dnsName(r.name() + "-" + Integer.toHexString(r.id().hashCode()) + "." + r.region() + ".elb.amazonaws.com")
                    .createdTime(r.created()).scheme("internet-facing").type("application").ipAddressType("ipv4")
                    .state(software.amazon.awssdk.services.elasticloadbalancingv2.model.LoadBalancerState.builder()
                        .code("active").build())
                    .build()));

        t.op(AUTOSCALING, "DescribeAutoScalingGroups",
            software.amazon.awssdk.services.autoscaling.model.DescribeAutoScalingGroupsRequest::builder,
            new Listing(software.amazon.awssdk.services.autoscaling.model.DescribeAutoScalingGroupsResponse::builder,
                "AutoScalingGroups", Paging.token("MaxRecords", 50, 1, 100),
                OpTable.narrowedBy(AwsType.AUTOSCALING_GROUP, "AutoScalingGroupNames"),
                (c, r) -> software.amazon.awssdk.services.autoscaling.model.AutoScalingGroup.builder()
                    .autoScalingGroupName(r.id()).autoScalingGroupARN(r.arn()).minSize(1).maxSize(3).desiredCapacity(1)
                    .defaultCooldown(300).availabilityZones(r.zone()).healthCheckType("EC2").createdTime(r.created())
                    .build()));

        t.list(ECR, "DescribeRepositories", software.amazon.awssdk.services.ecr.model.DescribeRepositoriesRequest::builder,
            software.amazon.awssdk.services.ecr.model.DescribeRepositoriesResponse::builder, "repositories",
            Paging.tokens("nextToken", "nextToken", "maxResults", 100, 1, 1000), AwsType.ECR_REPOSITORY,
            (c, r) -> software.amazon.awssdk.services.ecr.model.Repository.builder().repositoryArn(r.arn())
                .registryId(r.account()).repositoryName(r.id())
                .repositoryUri(r.account() + ".dkr.ecr." + r.region() + ".amazonaws.com/" + r.id()).createdAt(r.created())
                .imageTagMutability("MUTABLE").build());

        t.rest(APIGATEWAY, "GetRestApis", "GET /restapis", null,
            software.amazon.awssdk.services.apigateway.model.GetRestApisRequest::builder,
            new Listing(software.amazon.awssdk.services.apigateway.model.GetRestApisResponse::builder, "items",
                Paging.tokens("position", "position", "limit", 25, 1, 500), Listing.Source.of(AwsType.APIGATEWAY_REST_API),
                (c, r) -> software.amazon.awssdk.services.apigateway.model.RestApi.builder().id(r.id()).name(r.name())
                    .createdDate(r.created()).description("cloud-sim API").apiKeySource("HEADER").build()));

        Listing distributions = new Listing(software.amazon.awssdk.services.cloudfront.model.DistributionList::builder, "Items",
            Paging.marker("Marker", "NextMarker", "MaxItems", 100, 1, 100, "IsTruncated"),
            Listing.Source.of(AwsType.CLOUDFRONT_DISTRIBUTION),
            (c, r) -> software.amazon.awssdk.services.cloudfront.model.DistributionSummary.builder().id(r.id())
                .arn(r.arn()).status("Deployed").lastModifiedTime(r.created())
                .domainName("d" + r.id().toLowerCase(Locale.ROOT).substring(1, 12) + ".cloudfront.net").enabled(true)
                .comment("cloud-sim distribution").priceClass("PriceClass_All").httpVersion("http2").isIPV6Enabled(true)
                .staging(false).build());
        t.rest(CLOUDFRONT, "ListDistributions", "GET /2020-05-31/distribution", null,
            software.amazon.awssdk.services.cloudfront.model.ListDistributionsRequest::builder,
            OpTable.then(distributions, (call, request, inner) -> {
                var dl = (software.amazon.awssdk.services.cloudfront.model.DistributionList) inner;
                var req = (software.amazon.awssdk.services.cloudfront.model.ListDistributionsRequest) request;
                String marker = req.marker();
                String max = req.maxItems();
                return software.amazon.awssdk.services.cloudfront.model.ListDistributionsResponse.builder()
                    .distributionList(dl.toBuilder().quantity(dl.items().size()).marker(marker == null ? "" : marker)
                        .maxItems(max == null ? 100 : Integer.parseInt(max)).build())
                    .build();
            }));

        t.rest(EFS, "DescribeFileSystems", "GET /2015-02-01/file-systems", null,
            software.amazon.awssdk.services.efs.model.DescribeFileSystemsRequest::builder,
            new Listing(software.amazon.awssdk.services.efs.model.DescribeFileSystemsResponse::builder, "FileSystems",
                Paging.tokens("Marker", "NextMarker", "MaxItems", 100, 1, 100),
                OpTable.narrowedBy(AwsType.EFS_FILE_SYSTEM, "FileSystemId"),
                (c, r) -> software.amazon.awssdk.services.efs.model.FileSystemDescription.builder().ownerId(r.account())
                    .creationToken(r.name()).fileSystemId(r.id()).fileSystemArn(r.arn()).creationTime(r.created())
                    .lifeCycleState("available").numberOfMountTargets(0).performanceMode("generalPurpose")
                    .throughputMode("bursting").encrypted(true).name(r.name())
                    .sizeInBytes(software.amazon.awssdk.services.efs.model.FileSystemSize.builder().value(6144L).build())
                    .build()));

        t.op(ELASTICACHE, "DescribeCacheClusters",
            software.amazon.awssdk.services.elasticache.model.DescribeCacheClustersRequest::builder,
            new Listing(software.amazon.awssdk.services.elasticache.model.DescribeCacheClustersResponse::builder,
                "CacheClusters", Paging.tokens("Marker", "Marker", "MaxRecords", 100, 20, 100),
                OpTable.narrowedBy(AwsType.ELASTICACHE_CACHE_CLUSTER, "CacheClusterId"),
                (c, r) -> software.amazon.awssdk.services.elasticache.model.CacheCluster.builder().cacheClusterId(r.id())
                    .arn(r.arn()).cacheNodeType("cache.t3.micro").engine("redis").engineVersion("7.1")
                    .cacheClusterStatus("available").numCacheNodes(1).cacheClusterCreateTime(r.created())
                    .preferredAvailabilityZone(r.zone()).build()));

        t.list(ACM, "ListCertificates", software.amazon.awssdk.services.acm.model.ListCertificatesRequest::builder,
            software.amazon.awssdk.services.acm.model.ListCertificatesResponse::builder, "CertificateSummaryList",
            Paging.token("MaxItems", 1000, 1, 1000), AwsType.ACM_CERTIFICATE,
            (c, r) -> software.amazon.awssdk.services.acm.model.CertificateSummary.builder().certificateArn(r.id())
                .domainName(r.name() + ".example.com").status("ISSUED").type("AMAZON_ISSUED").createdAt(r.created())
                .build());
    }

    /**
     * S3, path style: ListBuckets (account-wide, paged, each bucket with its {@code BucketRegion}),
     * GetBucketLocation, HeadBucket ({@code x-amz-bucket-region} on 200, 301 and 403 alike), and the three calls
     * that tell
     * whether a bucket is public ({@link AwsSecurity.Bucket}): GetPublicAccessBlock, GetBucketPolicyStatus and
     * GetBucketAcl. Those three answer as S3 does for a bucket of another region than the request's (301
     * {@code PermanentRedirect} with {@code x-amz-bucket-region}), of another account or another expected
     * owner (403 {@code AccessDenied}) and for what the bucket does not have (404
     * {@code NoSuchPublicAccessBlockConfiguration}, {@code NoSuchBucketPolicy}).
     */
    private static void s3(OpTable t) {
        t.rest(S3, "ListBuckets", "GET /", "ListAllMyBucketsResult",
            software.amazon.awssdk.services.s3.model.ListBucketsRequest::builder,
            OpTable.then(new Listing(software.amazon.awssdk.services.s3.model.ListBucketsResponse::builder, "Buckets",
                Paging.tokens("ContinuationToken", "ContinuationToken", "MaxBuckets", Integer.MAX_VALUE, 1, 10000),
                Listing.Source.of(AwsType.S3_BUCKET),
                (c, r) -> software.amazon.awssdk.services.s3.model.Bucket.builder().name(r.id()).creationDate(r.created())
                    .bucketRegion(r.region()).build()),
                (call, req, resp) -> ((software.amazon.awssdk.services.s3.model.ListBucketsResponse) resp).toBuilder()
                    .owner(owner(call, call.account())).build()));
        t.rest(S3, "GetBucketLocation", "GET /{Bucket}?location", "LocationConstraint",
            software.amazon.awssdk.services.s3.model.GetBucketLocationRequest::builder, ServiceOperations::bucketLocation);
        t.rest(S3, "HeadBucket", "HEAD /{Bucket}", null,
            software.amazon.awssdk.services.s3.model.HeadBucketRequest::builder, ServiceOperations::headBucket);
        t.rest(S3, "GetPublicAccessBlock", "GET /{Bucket}?publicAccessBlock", null,
            software.amazon.awssdk.services.s3.model.GetPublicAccessBlockRequest::builder, (call, request) -> {
                var req = (software.amazon.awssdk.services.s3.model.GetPublicAccessBlockRequest) request;
                AwsSecurity.Bucket b = bucket(call, req.bucket(), req.expectedBucketOwner());
                AwsSecurity.PublicAccessBlock p = b.publicAccessBlock();
                if (p == null) {
                    throw AwsErrors.s3Bucket("NoSuchPublicAccessBlockConfiguration",
                        "The public access block configuration was not found", 404, b.name());
                }
                return software.amazon.awssdk.services.s3.model.GetPublicAccessBlockResponse.builder()
                    .publicAccessBlockConfiguration(software.amazon.awssdk.services.s3.model.PublicAccessBlockConfiguration
                        .builder().blockPublicAcls(p.blockPublicAcls()).ignorePublicAcls(p.ignorePublicAcls())
                        .blockPublicPolicy(p.blockPublicPolicy()).restrictPublicBuckets(p.restrictPublicBuckets()).build())
                    .build();
            });
        t.rest(S3, "GetBucketPolicyStatus", "GET /{Bucket}?policyStatus", null,
            software.amazon.awssdk.services.s3.model.GetBucketPolicyStatusRequest::builder, (call, request) -> {
                var req = (software.amazon.awssdk.services.s3.model.GetBucketPolicyStatusRequest) request;
                AwsSecurity.Bucket b = bucket(call, req.bucket(), req.expectedBucketOwner());
                if (b.policyPublic() == null) {
                    throw AwsErrors.s3Bucket("NoSuchBucketPolicy", "The bucket policy does not exist", 404, b.name());
                }
                return software.amazon.awssdk.services.s3.model.GetBucketPolicyStatusResponse.builder()
                    .policyStatus(software.amazon.awssdk.services.s3.model.PolicyStatus.builder().isPublic(b.policyPublic())
                        .build())
                    .build();
            });
        t.rest(S3, "GetBucketAcl", "GET /{Bucket}?acl", "AccessControlPolicy",
            software.amazon.awssdk.services.s3.model.GetBucketAclRequest::builder, (call, request) -> {
                var req = (software.amazon.awssdk.services.s3.model.GetBucketAclRequest) request;
                AwsSecurity.Bucket b = bucket(call, req.bucket(), req.expectedBucketOwner());
                List<software.amazon.awssdk.services.s3.model.Grant> grants = new java.util.ArrayList<>();
                for (AwsSecurity.Grant g : b.grants()) {
                    var grantee = software.amazon.awssdk.services.s3.model.Grantee.builder();
                    if (g.groupUri() != null) {
                        grantee.type(software.amazon.awssdk.services.s3.model.Type.GROUP).uri(g.groupUri());
                    } else {
                        grantee.type(software.amazon.awssdk.services.s3.model.Type.CANONICAL_USER).id(g.canonicalId())
                            .displayName(g.displayName());
                    }
                    grants.add(software.amazon.awssdk.services.s3.model.Grant.builder().grantee(grantee.build())
                        .permission(g.permission()).build());
                }
                return software.amazon.awssdk.services.s3.model.GetBucketAclResponse.builder()
                    .owner(owner(call, b.account())).grants(grants).build();
            });
    }

    /** An account as S3 names a bucket owner: its canonical user id and display name. */
    private static software.amazon.awssdk.services.s3.model.Owner owner(AwsCall call, String account) {
        var a = call.estate().account(account);
        return software.amazon.awssdk.services.s3.model.Owner.builder()
            .id(call.estate().security().canonicalUserId(account)).displayName(a == null ? account : a.name()).build();
    }

    /**
     * The bucket a per-bucket call addresses, checked as S3 checks it: it exists, the request was sent to its
     * region, and it belongs to the caller (and to {@code x-amz-expected-bucket-owner} when given).
     */
    private static AwsSecurity.Bucket bucket(AwsCall call, String name, String expectedOwner) {
        AwsResource r = call.estate().bucket(name);
        if (r == null) {
            throw AwsErrors.noSuchBucket(name);
        }
        if (!r.region().equals(call.region())) {
            throw AwsErrors.permanentRedirect(name, r.region());
        }
        if (!r.account().equals(call.account()) || (expectedOwner != null && !expectedOwner.equals(r.account()))) {
            throw AwsErrors.accessDenied(S3, "Access Denied");
        }
        return call.estate().security().bucket(r);
    }

    /**
     * HeadBucket: 200 with {@code x-amz-bucket-region} for the caller's bucket in the request's region, 301
     * {@code PermanentRedirect} from another region, 404 for no such bucket, and 403 for a bucket the caller may
     * not read, still naming its region, as S3 does (the body-less HEAD answers carry only headers).
     */
    private static SdkPojo headBucket(AwsCall call, SdkPojo request) {
        var req = (software.amazon.awssdk.services.s3.model.HeadBucketRequest) request;
        AwsResource r = call.estate().bucket(req.bucket());
        if (r == null) {
            throw AwsErrors.noSuchBucket(req.bucket());
        }
        if (!r.region().equals(call.region())) {
            throw AwsErrors.permanentRedirect(req.bucket(), r.region());
        }
        if (!r.account().equals(call.account())
            || (req.expectedBucketOwner() != null && !req.expectedBucketOwner().equals(r.account()))) {
            throw deniedWithRegion(call.estate(), req.bucket(), AwsErrors.accessDenied(S3, "Forbidden"));
        }
        return software.amazon.awssdk.services.s3.model.HeadBucketResponse.builder().bucketRegion(r.region())
            .accessPointAlias(false).build();
    }

    /**
     * S3's HeadBucket refusal: the error with the bucket's region in {@code x-amz-bucket-region}, which S3 sends
     * even to a caller it denies (unchanged when there is no such bucket).
     */
    static AwsError deniedWithRegion(io.cloudg.sim.estate.AwsEstate estate, String bucket, AwsError denied) {
        AwsResource r = bucket == null ? null : estate.bucket(bucket);
        return r == null ? denied : denied.withHeader("x-amz-bucket-region", r.region());
    }

    private static SdkPojo bucketLocation(AwsCall call, SdkPojo request) {
        String name = ((software.amazon.awssdk.services.s3.model.GetBucketLocationRequest) request).bucket();
        AwsResource b = call.estate().bucket(name);
        if (b == null) {
            throw AwsErrors.noSuchBucket(name);
        }
        if (!b.account().equals(call.account())) {
            throw AwsErrors.accessDenied(S3, "Access Denied");
        }
        return software.amazon.awssdk.services.s3.model.GetBucketLocationResponse.builder()
            .locationConstraint("us-east-1".equals(b.region()) ? null : b.region()).build();
    }
}
