package io.cloudg.sim.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cloudg.sim.estate.Asset;
import io.cloudg.sim.CloudSim;
import io.cloudg.sim.SimOptions;
import io.cloudg.sim.config.EstateSpec;
import io.cloudg.sim.estate.AwsAccount;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.acm.AcmClient;
import software.amazon.awssdk.services.apigateway.ApiGatewayClient;
import software.amazon.awssdk.services.autoscaling.AutoScalingClient;
import software.amazon.awssdk.services.cloudcontrol.CloudControlClient;
import software.amazon.awssdk.services.cloudcontrol.model.ResourceDescription;
import software.amazon.awssdk.services.cloudcontrol.model.TypeNotFoundException;
import software.amazon.awssdk.services.cloudformation.CloudFormationClient;
import software.amazon.awssdk.services.cloudfront.CloudFrontClient;
import software.amazon.awssdk.services.cloudfront.model.ListDistributionsResponse;
import software.amazon.awssdk.services.cloudtrail.CloudTrailClient;
import software.amazon.awssdk.services.cloudwatch.CloudWatchClient;
import software.amazon.awssdk.services.cloudwatchlogs.CloudWatchLogsClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.ecr.EcrClient;
import software.amazon.awssdk.services.ecs.EcsClient;
import software.amazon.awssdk.services.efs.EfsClient;
import software.amazon.awssdk.services.eks.EksClient;
import software.amazon.awssdk.services.elasticache.ElastiCacheClient;
import software.amazon.awssdk.services.elasticloadbalancingv2.ElasticLoadBalancingV2Client;
import software.amazon.awssdk.services.iam.IamClient;
import software.amazon.awssdk.services.iam.model.PolicyScopeType;
import software.amazon.awssdk.services.kms.KmsClient;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.rds.RdsClient;
import software.amazon.awssdk.services.resourcegroupstaggingapi.ResourceGroupsTaggingApiClient;
import software.amazon.awssdk.services.resourcegroupstaggingapi.model.ResourceTagMapping;
import software.amazon.awssdk.services.route53.Route53Client;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.ssm.SsmClient;
import software.amazon.awssdk.services.sts.StsClient;

/**
 * Every listing beyond EC2, through the real clients and their own paginators, in every account and region,
 * with page sizes small enough that every listing takes several pages: the union must be exactly the truth.
 */
class AwsServicesTest {
    static CloudSim sim;
    static final List<String> REGIONS = List.of("us-east-1", "eu-west-1");

    @BeforeAll
    static void start() {
        sim = CloudSim.start(SimOptions.builder().seed(11).estate(EstateSpec.fromYaml("""
            aws:
              accounts: 2
              regions: [us-east-1, eu-west-1]
              resources:
                AWS::IAM::User: 3
                AWS::IAM::Role: 2
                AWS::IAM::ManagedPolicy: 3
                AWS::IAM::Group: 2
                AWS::S3::Bucket: 3
                AWS::Lambda::Function: 3
                AWS::RDS::DBInstance: 22
                AWS::RDS::DBCluster: 21
                AWS::DynamoDB::Table: 3
                AWS::SNS::Topic: 101
                AWS::SQS::Queue: 3
                AWS::KMS::Key: 3
                AWS::ECS::Cluster: 3
                AWS::EKS::Cluster: 3
                AWS::CloudWatch::Alarm: 3
                AWS::Logs::LogGroup: 3
                AWS::Route53::HostedZone: 3
                AWS::CloudFormation::Stack: 101
                AWS::SSM::Parameter: 3
                AWS::SecretsManager::Secret: 3
                AWS::CloudTrail::Trail: 51
                AWS::ElasticLoadBalancingV2::LoadBalancer: 3
                AWS::AutoScaling::AutoScalingGroup: 3
                AWS::ECR::Repository: 3
                AWS::ApiGateway::RestApi: 3
                AWS::CloudFront::Distribution: 3
                AWS::EFS::FileSystem: 3
                AWS::ElastiCache::CacheCluster: 21
                AWS::CertificateManager::Certificate: 3
                AWS::EC2::VPC: 2
                AWS::EC2::Subnet: 2
                AWS::EC2::EIP: 2
                AWS::EC2::Image: 2
            quotas: {enabled: false}
            """)).build());
    }

    @AfterAll
    static void stop() {
        sim.close();
    }

    static AwsCredentialsProvider credentials(AwsAccount a) {
        if (a.management()) {
            return AwsClients.management();
        }
        try (StsClient sts = AwsClients.aimShared(StsClient.builder(), sim, Region.US_EAST_1, AwsClients.management()).build()) {
            return AwsClients.of(sts.assumeRole(b -> b.roleArn("arn:aws:iam::" + a.id() + ":role/OrganizationAccountAccessRole")
                .roleSessionName("t")).credentials());
        }
    }

    @Test
    void everyListingInEveryAccountAndRegionPagesToExactlyTheTruth() {
        Set<Asset> seen = new HashSet<>();
        for (AwsAccount acct : sim.estate().aws().accounts()) {
            AwsCredentialsProvider c = credentials(acct);
            String a = acct.id();
            // global services
            try (IamClient iam = AwsClients.aimShared(IamClient.builder(), sim, Region.AWS_GLOBAL, c).build();
                 Route53Client r53 = AwsClients.aimShared(Route53Client.builder(), sim, Region.AWS_GLOBAL, c).build();
                 CloudFrontClient cf = AwsClients.aimShared(CloudFrontClient.builder(), sim, Region.AWS_GLOBAL, c).build();
                 S3Client s3 = AwsClients.aimShared(S3Client.builder(), sim, Region.US_EAST_1, c).forcePathStyle(true).build()) {
                check(seen, a, "global", "AWS::IAM::User", iam.listUsersPaginator(b -> b.maxItems(1)).users().stream().map(u -> u.userName()));
                check(seen, a, "global", "AWS::IAM::Role", iam.listRolesPaginator(b -> b.maxItems(1)).roles().stream().map(r -> r.roleName()));
                check(seen, a, "global", "AWS::IAM::ManagedPolicy", iam.listPoliciesPaginator(b -> b.maxItems(1).scope(PolicyScopeType.LOCAL)).policies().stream().map(p -> p.arn()));
                assertThat(iam.listPolicies(b -> b.scope(PolicyScopeType.AWS)).policies()).isEmpty();
                check(seen, a, "global", "AWS::IAM::Group", iam.listGroupsPaginator(b -> b.maxItems(1)).groups().stream().map(g -> g.groupName()));
                check(seen, a, "global", "AWS::Route53::HostedZone", r53.listHostedZonesPaginator(b -> b.maxItems("1")).hostedZones().stream().map(z -> z.id()));
                check(seen, a, "global", "AWS::CloudFront::Distribution", distributions(cf));
                List<String> buckets = s3.listBucketsPaginator(b -> b.maxBuckets(1)).buckets().stream().map(x -> x.name()).toList();
                assertThat(new HashSet<>(buckets)).isEqualTo(sim.truth().ids("aws", a, "AWS::S3::Bucket")).hasSize(buckets.size());
                for (Asset bucket : sim.truth().select(x -> x.account().equals(a) && x.type().equals("AWS::S3::Bucket"))) {
                    String loc = s3.getBucketLocation(b -> b.bucket(bucket.id())).locationConstraintAsString();
                    assertThat(loc == null || loc.isEmpty() ? "us-east-1" : loc).isEqualTo(bucket.region());
                    seen.add(bucket);
                }
                assertThatThrownBy(() -> s3.getBucketLocation(b -> b.bucket("no-such-bucket-anywhere")))
                    .isInstanceOfSatisfying(S3Exception.class, e -> {
                        assertThat(e.statusCode()).isEqualTo(404);
                        assertThat(e.awsErrorDetails().errorCode()).isEqualTo("NoSuchBucket");
                    });
            }
            for (String region : REGIONS) {
                Region r = Region.of(region);
                try (LambdaClient lambda = AwsClients.aimShared(LambdaClient.builder(), sim, r, c).build();
                     RdsClient rds = AwsClients.aimShared(RdsClient.builder(), sim, r, c).build();
                     DynamoDbClient ddb = AwsClients.aimShared(DynamoDbClient.builder(), sim, r, c).build();
                     SnsClient sns = AwsClients.aimShared(SnsClient.builder(), sim, r, c).build();
                     SqsClient sqs = AwsClients.aimShared(SqsClient.builder(), sim, r, c).build();
                     KmsClient kms = AwsClients.aimShared(KmsClient.builder(), sim, r, c).build();
                     EcsClient ecs = AwsClients.aimShared(EcsClient.builder(), sim, r, c).build();
                     EksClient eks = AwsClients.aimShared(EksClient.builder(), sim, r, c).build();
                     CloudWatchClient cw = AwsClients.aimShared(CloudWatchClient.builder(), sim, r, c).build();
                     CloudWatchLogsClient logs = AwsClients.aimShared(CloudWatchLogsClient.builder(), sim, r, c).build();
                     CloudFormationClient cfn = AwsClients.aimShared(CloudFormationClient.builder(), sim, r, c).build();
                     SsmClient ssm = AwsClients.aimShared(SsmClient.builder(), sim, r, c).build();
                     SecretsManagerClient sm = AwsClients.aimShared(SecretsManagerClient.builder(), sim, r, c).build();
                     CloudTrailClient ct = AwsClients.aimShared(CloudTrailClient.builder(), sim, r, c).build();
                     ElasticLoadBalancingV2Client elb = AwsClients.aimShared(ElasticLoadBalancingV2Client.builder(), sim, r, c).build();
                     AutoScalingClient asg = AwsClients.aimShared(AutoScalingClient.builder(), sim, r, c).build();
                     EcrClient ecr = AwsClients.aimShared(EcrClient.builder(), sim, r, c).build();
                     ApiGatewayClient apigw = AwsClients.aimShared(ApiGatewayClient.builder(), sim, r, c).build();
                     EfsClient efs = AwsClients.aimShared(EfsClient.builder(), sim, r, c).build();
                     ElastiCacheClient ec = AwsClients.aimShared(ElastiCacheClient.builder(), sim, r, c).build();
                     AcmClient acm = AwsClients.aimShared(AcmClient.builder(), sim, r, c).build()) {
                    check(seen, a, region, "AWS::Lambda::Function", lambda.listFunctionsPaginator(b -> b.maxItems(1)).functions().stream().map(f -> f.functionName()));
                    check(seen, a, region, "AWS::RDS::DBInstance", rds.describeDBInstancesPaginator(b -> b.maxRecords(20)).dbInstances().stream().map(d -> d.dbInstanceIdentifier()));
                    check(seen, a, region, "AWS::RDS::DBCluster", rds.describeDBClustersPaginator(b -> b.maxRecords(20)).dbClusters().stream().map(d -> d.dbClusterIdentifier()));
                    check(seen, a, region, "AWS::DynamoDB::Table", ddb.listTablesPaginator(b -> b.limit(1)).tableNames().stream());
                    check(seen, a, region, "AWS::SNS::Topic", sns.listTopicsPaginator().topics().stream().map(t -> t.topicArn()));
                    check(seen, a, region, "AWS::SQS::Queue", sqs.listQueuesPaginator(b -> b.maxResults(1)).queueUrls().stream());
                    check(seen, a, region, "AWS::KMS::Key", kms.listKeysPaginator(b -> b.limit(1)).keys().stream().map(k -> k.keyId()));
                    check(seen, a, region, "AWS::ECS::Cluster", ecs.listClustersPaginator(b -> b.maxResults(1)).clusterArns().stream());
                    check(seen, a, region, "AWS::EKS::Cluster", eks.listClustersPaginator(b -> b.maxResults(1)).clusters().stream());
                    check(seen, a, region, "AWS::CloudWatch::Alarm", cw.describeAlarmsPaginator(b -> b.maxRecords(1)).metricAlarms().stream().map(m -> m.alarmName()));
                    check(seen, a, region, "AWS::Logs::LogGroup", logs.describeLogGroupsPaginator(b -> b.limit(1)).logGroups().stream().map(g -> g.logGroupName()));
                    check(seen, a, region, "AWS::CloudFormation::Stack", cfn.listStacksPaginator().stackSummaries().stream().map(s -> s.stackId()));
                    assertThat(cfn.describeStacksPaginator().stacks().stream().map(s -> s.stackId()).collect(Collectors.toSet()))
                        .isEqualTo(sim.truth().ids("aws", a, region, "AWS::CloudFormation::Stack"));
                    check(seen, a, region, "AWS::SSM::Parameter", ssm.describeParametersPaginator(b -> b.maxResults(1)).stream().flatMap(x -> x.parameters().stream()).map(p -> p.name()));
                    check(seen, a, region, "AWS::SecretsManager::Secret", sm.listSecretsPaginator(b -> b.maxResults(1)).stream().flatMap(x -> x.secretList().stream()).map(s -> s.arn()));
                    check(seen, a, region, "AWS::CloudTrail::Trail", ct.listTrailsPaginator(b -> { }).trails().stream().map(t -> t.trailARN()));
                    assertThat(ct.describeTrails().trailList().stream().map(t -> t.trailARN()).collect(Collectors.toSet()))
                        .isEqualTo(sim.truth().ids("aws", a, region, "AWS::CloudTrail::Trail"));
                    check(seen, a, region, "AWS::ElasticLoadBalancingV2::LoadBalancer", elb.describeLoadBalancersPaginator(b -> b.pageSize(1)).loadBalancers().stream().map(l -> l.loadBalancerArn()));
                    check(seen, a, region, "AWS::AutoScaling::AutoScalingGroup", asg.describeAutoScalingGroupsPaginator(b -> b.maxRecords(1)).autoScalingGroups().stream().map(g -> g.autoScalingGroupName()));
                    check(seen, a, region, "AWS::ECR::Repository", ecr.describeRepositoriesPaginator(b -> b.maxResults(1)).repositories().stream().map(x -> x.repositoryName()));
                    check(seen, a, region, "AWS::ApiGateway::RestApi", apigw.getRestApisPaginator(b -> b.limit(1)).items().stream().map(x -> x.id()));
                    check(seen, a, region, "AWS::EFS::FileSystem", efs.describeFileSystemsPaginator(b -> b.maxItems(1)).fileSystems().stream().map(f -> f.fileSystemId()));
                    check(seen, a, region, "AWS::ElastiCache::CacheCluster", ec.describeCacheClustersPaginator(b -> b.maxRecords(20)).cacheClusters().stream().map(x -> x.cacheClusterId()));
                    check(seen, a, region, "AWS::CertificateManager::Certificate", acm.listCertificatesPaginator(b -> b.maxItems(1)).certificateSummaryList().stream().map(x -> x.certificateArn()));
                }
            }
        }
        Set<String> checkedTypes = seen.stream().map(Asset::type).collect(Collectors.toSet());
        Set<Asset> expected = sim.truth().select(x -> x.provider().equals("aws") && checkedTypes.contains(x.type()))
            .stream().collect(Collectors.toSet());
        assertThat(seen).isEqualTo(expected);
        assertThat(checkedTypes).hasSize(29);
    }

    @Test
    void cloudControlListsEveryTypeWithItsPrimaryIdentifier() {
        for (AwsAccount acct : sim.estate().aws().accounts()) {
            AwsCredentialsProvider c = credentials(acct);
            for (String region : REGIONS) {
                try (CloudControlClient cc = AwsClients.aimShared(CloudControlClient.builder(), sim, Region.of(region), c).build()) {
                    List<String> types = sim.truth().select(x -> x.provider().equals("aws")).stream().map(Asset::type)
                        .distinct().filter(t -> !t.equals("AWS::EC2::Snapshot") && !t.equals("AWS::EC2::Image")).toList();
                    for (String type : types) {
                        Set<String> expected = sim.truth().select(x -> x.provider().equals("aws") && x.type().equals(type)
                                && (type.equals("AWS::Organizations::Account") ? acct.management() : x.account().equals(acct.id()))
                                && (x.region().equals(region) || x.region().equals("global") && region.equals("us-east-1")))
                            .stream().map(AwsServicesTest::cloudControlIdentifier).collect(Collectors.toSet());
                        List<String> got = cc.listResourcesPaginator(b -> b.typeName(type).maxResults(1)).stream()
                            .peek(p -> assertThat(p.typeName()).isEqualTo(type))
                            .flatMap(p -> p.resourceDescriptions().stream()).map(ResourceDescription::identifier)
                            .map(id -> type.equals("AWS::EC2::EIP") ? eipAllocation(id) : id).toList();
                        assertThat(new HashSet<>(got)).as("%s %s %s", type, acct.id(), region).isEqualTo(expected)
                            .hasSize(got.size());
                    }
                    assertThat(cc.listResources(b -> b.typeName("AWS::SNS::Subscription")).resourceDescriptions()).isEmpty();
                    assertThatThrownBy(() -> cc.listResources(b -> b.typeName("AWS::EC2::Image")))
                        .isInstanceOf(TypeNotFoundException.class);
                }
            }
        }
    }

    @Test
    void taggingReturnsTheArnOfEveryRegionalResourceAndFiltersByType() {
        for (AwsAccount acct : sim.estate().aws().accounts()) {
            AwsCredentialsProvider c = credentials(acct);
            for (String region : REGIONS) {
                try (ResourceGroupsTaggingApiClient tag = AwsClients.aimShared(ResourceGroupsTaggingApiClient.builder(), sim,
                    Region.of(region), c).build()) {
                    List<String> arns = tag.getResourcesPaginator(b -> b.resourcesPerPage(7)).resourceTagMappingList().stream()
                        .map(ResourceTagMapping::resourceARN).toList();
                    Set<String> expected = sim.truth().select(x -> x.provider().equals("aws") && x.account().equals(acct.id())
                        && x.region().equals(region)).stream().map(Asset::arn).collect(Collectors.toSet());
                    assertThat(new HashSet<>(arns)).isEqualTo(expected).hasSize(arns.size());
                    List<String> vpcs = tag.getResources(b -> b.resourceTypeFilters("ec2:vpc")).resourceTagMappingList()
                        .stream().map(ResourceTagMapping::resourceARN).toList();
                    assertThat(vpcs).hasSize(2).allSatisfy(arn -> assertThat(arn).contains(":vpc/"));
                    assertThat(tag.getResourcesPaginator(b -> b.resourceTypeFilters("sns")).resourceTagMappingList().stream())
                        .hasSize(101);
                }
            }
        }
    }

    private static String cloudControlIdentifier(Asset a) {
        return switch (a.type()) {
            case "AWS::ECS::Cluster", "AWS::CloudTrail::Trail" -> a.id().substring(a.id().lastIndexOf('/') + 1);
            default -> a.id();
        };
    }

    /** Cloud Control names an Elastic IP {@code publicIp|allocationId}. */
    private static String eipAllocation(String identifier) {
        assertThat(identifier).matches("\\d+\\.\\d+\\.\\d+\\.\\d+\\|eipalloc-[0-9a-f]{17}");
        return identifier.substring(identifier.indexOf('|') + 1);
    }

    private static Stream<String> distributions(CloudFrontClient cf) {
        List<String> ids = new ArrayList<>();
        String marker = null;
        do {
            String m = marker;
            ListDistributionsResponse r = cf.listDistributions(b -> b.maxItems("1").marker(m));
            r.distributionList().items().forEach(d -> ids.add(d.id()));
            assertThat(r.distributionList().quantity()).isEqualTo(r.distributionList().items().size());
            marker = Boolean.TRUE.equals(r.distributionList().isTruncated()) ? r.distributionList().nextMarker() : null;
        } while (marker != null);
        return ids.stream();
    }

    private static void check(Set<Asset> seen, String account, String region, String type, Stream<String> listed) {
        List<String> got = listed.toList();
        Set<String> truth = sim.truth().ids("aws", account, region, type);
        assertThat(new HashSet<>(got)).as("%s in %s/%s", type, account, region).isEqualTo(truth);
        assertThat(got).as("no duplicates across pages of %s", type).hasSize(truth.size());
        assertThat(truth).as("estate has %s", type).isNotEmpty();
        seen.addAll(sim.truth().select(x -> x.provider().equals("aws") && x.account().equals(account)
            && x.region().equals(region) && x.type().equals(type)));
    }
}
