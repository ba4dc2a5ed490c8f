package io.cloudg.aws;

import io.cloudg.aws.AwsCollector.Tags;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.services.acm.AcmClient;
import software.amazon.awssdk.services.acm.model.CertificateSummary;
import software.amazon.awssdk.services.apigateway.ApiGatewayClient;
import software.amazon.awssdk.services.apigateway.model.RestApi;
import software.amazon.awssdk.services.autoscaling.AutoScalingClient;
import software.amazon.awssdk.services.autoscaling.model.AutoScalingGroup;
import software.amazon.awssdk.services.cloudformation.CloudFormationClient;
import software.amazon.awssdk.services.cloudformation.model.Stack;
import software.amazon.awssdk.services.cloudfront.CloudFrontClient;
import software.amazon.awssdk.services.cloudfront.model.DistributionList;
import software.amazon.awssdk.services.cloudfront.model.DistributionSummary;
import software.amazon.awssdk.services.cloudtrail.CloudTrailClient;
import software.amazon.awssdk.services.cloudtrail.model.Trail;
import software.amazon.awssdk.services.cloudwatch.CloudWatchClient;
import software.amazon.awssdk.services.cloudwatch.model.MetricAlarm;
import software.amazon.awssdk.services.cloudwatchlogs.CloudWatchLogsClient;
import software.amazon.awssdk.services.cloudwatchlogs.model.LogGroup;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.model.Address;
import software.amazon.awssdk.services.ec2.model.Image;
import software.amazon.awssdk.services.ec2.model.ImageAttributeName;
import software.amazon.awssdk.services.ec2.model.Instance;
import software.amazon.awssdk.services.ec2.model.InternetGateway;
import software.amazon.awssdk.services.ec2.model.IpPermission;
import software.amazon.awssdk.services.ec2.model.IpRange;
import software.amazon.awssdk.services.ec2.model.Ipv6Range;
import software.amazon.awssdk.services.ec2.model.KeyPairInfo;
import software.amazon.awssdk.services.ec2.model.LaunchPermission;
import software.amazon.awssdk.services.ec2.model.LaunchTemplate;
import software.amazon.awssdk.services.ec2.model.NatGateway;
import software.amazon.awssdk.services.ec2.model.NetworkInterface;
import software.amazon.awssdk.services.ec2.model.RouteTable;
import software.amazon.awssdk.services.ec2.model.SecurityGroup;
import software.amazon.awssdk.services.ec2.model.Snapshot;
import software.amazon.awssdk.services.ec2.model.Subnet;
import software.amazon.awssdk.services.ec2.model.Volume;
import software.amazon.awssdk.services.ec2.model.Vpc;
import software.amazon.awssdk.services.ecr.EcrClient;
import software.amazon.awssdk.services.ecr.model.Repository;
import software.amazon.awssdk.services.ecs.EcsClient;
import software.amazon.awssdk.services.efs.EfsClient;
import software.amazon.awssdk.services.efs.model.FileSystemDescription;
import software.amazon.awssdk.services.eks.EksClient;
import software.amazon.awssdk.services.elasticache.ElastiCacheClient;
import software.amazon.awssdk.services.elasticache.model.CacheCluster;
import software.amazon.awssdk.services.elasticloadbalancingv2.ElasticLoadBalancingV2Client;
import software.amazon.awssdk.services.elasticloadbalancingv2.model.LoadBalancer;
import software.amazon.awssdk.services.iam.IamClient;
import software.amazon.awssdk.services.iam.model.Group;
import software.amazon.awssdk.services.iam.model.IamException;
import software.amazon.awssdk.services.iam.model.Policy;
import software.amazon.awssdk.services.iam.model.PolicyScopeType;
import software.amazon.awssdk.services.iam.model.Role;
import software.amazon.awssdk.services.iam.model.User;
import software.amazon.awssdk.services.kms.KmsClient;
import software.amazon.awssdk.services.kms.model.KeyListEntry;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.lambda.model.FunctionConfiguration;
import software.amazon.awssdk.services.rds.RdsClient;
import software.amazon.awssdk.services.rds.model.DBCluster;
import software.amazon.awssdk.services.rds.model.DBInstance;
import software.amazon.awssdk.services.route53.Route53Client;
import software.amazon.awssdk.services.route53.model.HostedZone;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.Bucket;
import software.amazon.awssdk.services.s3.model.PublicAccessBlockConfiguration;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;
import software.amazon.awssdk.services.secretsmanager.model.SecretListEntry;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sns.model.Topic;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.ssm.SsmClient;
import software.amazon.awssdk.services.ssm.model.ParameterMetadata;

/**
 * Every deep AWS collector cloudg has, each a few declarative lines. The names are the coverage entries
 * ({@code vpc}, {@code subnets}...), the types CloudFormation's, the ids exactly what the listing API
 * returns (EC2 ids, key pair names, IAM names and customer policy ARNs, bucket names, topic ARNs, queue
 * URLs, stack ids, hosted zone ids as {@code /hostedzone/...}).
 */
public final class AwsCatalog {
    private AwsCatalog() {
    }

    /**
     * EC2 page size. Paging keeps each response (and the memory it takes) bounded however large a region
     * is, and a paginated Describe call is held to the normal quota, not the stricter one AWS applies to
     * unpaginated calls of its resource-intensive actions.
     */
    static final int PAGE = 500;

    private static final List<AwsCollector<?, ?>> ALL = List.of(
            // ---------------------------------------------------------------- EC2
            AwsCollector.<Ec2Client, Instance>of("instances", Ec2Client.class, "AWS::EC2::Instance")
                    .list((c, w) -> c.describeInstancesPaginator(r -> r.maxResults(PAGE)).reservations().stream()
                            .flatMap(r -> r.instances().stream())::iterator)
                    .id(Instance::instanceId).name(i -> Tags.ec2Name(i.tags())).tags(i -> Tags.ec2(i.tags()))
                    .arn("arn:aws:ec2:{region}:{account}:instance/{id}"),
            AwsCollector.<Ec2Client, Vpc>of("vpc", Ec2Client.class, "AWS::EC2::VPC")
                    .list((c, w) -> c.describeVpcsPaginator(r -> r.maxResults(PAGE)).vpcs())
                    .id(Vpc::vpcId).name(v -> Tags.ec2Name(v.tags())).tags(v -> Tags.ec2(v.tags()))
                    .arn("arn:aws:ec2:{region}:{account}:vpc/{id}"),
            AwsCollector.<Ec2Client, Subnet>of("subnets", Ec2Client.class, "AWS::EC2::Subnet")
                    .list((c, w) -> c.describeSubnetsPaginator(r -> r.maxResults(PAGE)).subnets())
                    .id(Subnet::subnetId).name(s -> Tags.ec2Name(s.tags())).tags(s -> Tags.ec2(s.tags()))
                    .arn("arn:aws:ec2:{region}:{account}:subnet/{id}"),
            AwsCollector.<Ec2Client, SecurityGroup>of("security_groups", Ec2Client.class, "AWS::EC2::SecurityGroup")
                    .list((c, w) -> c.describeSecurityGroupsPaginator(r -> r.maxResults(PAGE)).securityGroups())
                    .id(SecurityGroup::groupId).name(SecurityGroup::groupName).tags(g -> Tags.ec2(g.tags()))
                    .arn("arn:aws:ec2:{region}:{account}:security-group/{id}")
                    .detail((c, g, w) -> ingress(g)),
            AwsCollector.<Ec2Client, NetworkInterface>of("network_interfaces", Ec2Client.class, "AWS::EC2::NetworkInterface")
                    .list((c, w) -> c.describeNetworkInterfacesPaginator(r -> r.maxResults(PAGE)).networkInterfaces())
                    .id(NetworkInterface::networkInterfaceId).tags(n -> Tags.ec2(n.tagSet()))
                    .arn("arn:aws:ec2:{region}:{account}:network-interface/{id}"),
            AwsCollector.<Ec2Client, Volume>of("volumes", Ec2Client.class, "AWS::EC2::Volume")
                    .list((c, w) -> c.describeVolumesPaginator(r -> r.maxResults(PAGE)).volumes())
                    .id(Volume::volumeId).name(v -> Tags.ec2Name(v.tags())).tags(v -> Tags.ec2(v.tags()))
                    .arn("arn:aws:ec2:{region}:{account}:volume/{id}"),
            AwsCollector.<Ec2Client, Snapshot>of("snapshots", Ec2Client.class, "AWS::EC2::Snapshot")
                    .list((c, w) -> c.describeSnapshotsPaginator(r -> r.ownerIds("self").maxResults(PAGE)).snapshots())
                    .id(Snapshot::snapshotId).tags(s -> Tags.ec2(s.tags()))
                    .arn("arn:aws:ec2:{region}::snapshot/{id}"),
            AwsCollector.<Ec2Client, Image>of("amis", Ec2Client.class, "AWS::EC2::Image")
                    .list((c, w) -> c.describeImagesPaginator(r -> r.owners("self").maxResults(PAGE)).images())
                    .id(Image::imageId).name(Image::name).tags(i -> Tags.ec2(i.tags()))
                    .arn("arn:aws:ec2:{region}::image/{id}")
                    .detail((c, image, w) -> launchPermissions(c, image)),
            AwsCollector.<Ec2Client, InternetGateway>of("internet_gateways", Ec2Client.class, "AWS::EC2::InternetGateway")
                    .list((c, w) -> c.describeInternetGatewaysPaginator(r -> r.maxResults(PAGE)).internetGateways())
                    .id(InternetGateway::internetGatewayId).tags(g -> Tags.ec2(g.tags()))
                    .arn("arn:aws:ec2:{region}:{account}:internet-gateway/{id}"),
            AwsCollector.<Ec2Client, NatGateway>of("nat_gateways", Ec2Client.class, "AWS::EC2::NatGateway")
                    .list((c, w) -> c.describeNatGatewaysPaginator(r -> r.maxResults(PAGE)).natGateways())
                    .id(NatGateway::natGatewayId).tags(g -> Tags.ec2(g.tags()))
                    .arn("arn:aws:ec2:{region}:{account}:natgateway/{id}"),
            AwsCollector.<Ec2Client, RouteTable>of("route_tables", Ec2Client.class, "AWS::EC2::RouteTable")
                    .list((c, w) -> c.describeRouteTablesPaginator(r -> r.maxResults(100)).routeTables())
                    .id(RouteTable::routeTableId).tags(t -> Tags.ec2(t.tags()))
                    .arn("arn:aws:ec2:{region}:{account}:route-table/{id}"),
            AwsCollector.<Ec2Client, KeyPairInfo>of("key_pairs", Ec2Client.class, "AWS::EC2::KeyPair")
                    .list((c, w) -> c.describeKeyPairs().keyPairs())
                    .id(KeyPairInfo::keyName).name(KeyPairInfo::keyName).tags(k -> Tags.ec2(k.tags()))
                    .arn("arn:aws:ec2:{region}:{account}:key-pair/{id}"),
            AwsCollector.<Ec2Client, Address>of("elastic_ips", Ec2Client.class, "AWS::EC2::EIP")
                    .list((c, w) -> c.describeAddresses().addresses())
                    .id(Address::allocationId).name(Address::publicIp).tags(a -> Tags.ec2(a.tags()))
                    .arn("arn:aws:ec2:{region}:{account}:elastic-ip/{id}"),
            AwsCollector.<Ec2Client, LaunchTemplate>of("launch_templates", Ec2Client.class, "AWS::EC2::LaunchTemplate")
                    .list((c, w) -> c.describeLaunchTemplatesPaginator(r -> r.maxResults(200)).launchTemplates())
                    .id(LaunchTemplate::launchTemplateId).name(LaunchTemplate::launchTemplateName)
                    .tags(t -> Tags.ec2(t.tags())).arn("arn:aws:ec2:{region}:{account}:launch-template/{id}"),
            // ---------------------------------------------------------------- IAM (global)
            AwsCollector.<IamClient, User>of("iam_users", IamClient.class, "AWS::IAM::User")
                    .list((c, w) -> c.listUsersPaginator().users()).id(User::userName).name(User::userName)
                    .arn("arn:aws:iam::{account}:user/{id}")
                    .detail((c, u, w) -> mfaDevices(c, u)),
            AwsCollector.<IamClient, Role>of("iam_roles", IamClient.class, "AWS::IAM::Role")
                    .list((c, w) -> c.listRolesPaginator().roles()).id(Role::roleName).name(Role::roleName)
                    .arn("arn:aws:iam::{account}:role/{id}"),
            AwsCollector.<IamClient, Policy>of("iam_policies", IamClient.class, "AWS::IAM::ManagedPolicy")
                    .list((c, w) -> c.listPoliciesPaginator(r -> r.scope(PolicyScopeType.LOCAL)).policies())
                    .id(Policy::arn).name(Policy::policyName),
            AwsCollector.<IamClient, Group>of("iam_groups", IamClient.class, "AWS::IAM::Group")
                    .list((c, w) -> c.listGroupsPaginator().groups()).id(Group::groupName).name(Group::groupName)
                    .arn("arn:aws:iam::{account}:group/{id}"),
            // ---------------------------------------------------------------- storage, compute, data
            AwsCollector.<S3Client, Bucket>of("s3_buckets", S3Client.class, "AWS::S3::Bucket")
                    .list((c, w) -> c.listBucketsPaginator().buckets()).id(Bucket::name).name(Bucket::name)
                    .arn("arn:aws:s3:::{id}")
                    .regionOf((c, b, w) -> bucketRegion(c.getBucketLocation(r -> r.bucket(b.name())).locationConstraintAsString()))
                    .detail((c, b, w) -> bucketExposure(c, b)),
            AwsCollector.<LambdaClient, FunctionConfiguration>of("lambda_functions", LambdaClient.class, "AWS::Lambda::Function")
                    .list((c, w) -> c.listFunctionsPaginator().functions())
                    .id(FunctionConfiguration::functionName).name(FunctionConfiguration::functionName)
                    .arn("arn:aws:lambda:{region}:{account}:function:{id}"),
            AwsCollector.<RdsClient, DBInstance>of("rds_instances", RdsClient.class, "AWS::RDS::DBInstance")
                    .list((c, w) -> c.describeDBInstancesPaginator().dbInstances())
                    .id(DBInstance::dbInstanceIdentifier).arn("arn:aws:rds:{region}:{account}:db:{id}"),
            AwsCollector.<RdsClient, DBCluster>of("rds_clusters", RdsClient.class, "AWS::RDS::DBCluster")
                    .list((c, w) -> c.describeDBClustersPaginator().dbClusters())
                    .id(DBCluster::dbClusterIdentifier).arn("arn:aws:rds:{region}:{account}:cluster:{id}"),
            AwsCollector.<DynamoDbClient, String>of("dynamodb_tables", DynamoDbClient.class, "AWS::DynamoDB::Table")
                    .list((c, w) -> c.listTablesPaginator().tableNames()).id(t -> t).name(t -> t)
                    .arn("arn:aws:dynamodb:{region}:{account}:table/{id}"),
            AwsCollector.<SnsClient, Topic>of("sns_topics", SnsClient.class, "AWS::SNS::Topic")
                    .list((c, w) -> c.listTopicsPaginator().topics()).id(Topic::topicArn),
            AwsCollector.<SqsClient, String>of("sqs_queues", SqsClient.class, "AWS::SQS::Queue")
                    .list((c, w) -> c.listQueuesPaginator().queueUrls()).id(u -> u)
                    .name(u -> u.substring(u.lastIndexOf('/') + 1)),
            AwsCollector.<KmsClient, KeyListEntry>of("kms_keys", KmsClient.class, "AWS::KMS::Key")
                    .list((c, w) -> c.listKeysPaginator().keys()).id(KeyListEntry::keyId).name(k -> null)
                    .arn("arn:aws:kms:{region}:{account}:key/{id}"),
            AwsCollector.<EcsClient, String>of("ecs_clusters", EcsClient.class, "AWS::ECS::Cluster")
                    .list((c, w) -> c.listClustersPaginator().clusterArns()).id(a -> a)
                    .name(a -> a.substring(a.lastIndexOf('/') + 1)),
            AwsCollector.<EksClient, String>of("eks_clusters", EksClient.class, "AWS::EKS::Cluster")
                    .list((c, w) -> c.listClustersPaginator().clusters()).id(n -> n).name(n -> n)
                    .arn("arn:aws:eks:{region}:{account}:cluster/{id}"),
            AwsCollector.<CloudWatchClient, MetricAlarm>of("cloudwatch_alarms", CloudWatchClient.class, "AWS::CloudWatch::Alarm")
                    .list((c, w) -> c.describeAlarmsPaginator().metricAlarms()).id(MetricAlarm::alarmName)
                    .name(MetricAlarm::alarmName).arn("arn:aws:cloudwatch:{region}:{account}:alarm:{id}"),
            AwsCollector.<CloudWatchLogsClient, LogGroup>of("log_groups", CloudWatchLogsClient.class, "AWS::Logs::LogGroup")
                    .list((c, w) -> c.describeLogGroupsPaginator().logGroups()).id(LogGroup::logGroupName)
                    .name(LogGroup::logGroupName).arn("arn:aws:logs:{region}:{account}:log-group:{id}"),
            AwsCollector.<Route53Client, HostedZone>of("route53_zones", Route53Client.class, "AWS::Route53::HostedZone")
                    .list((c, w) -> c.listHostedZonesPaginator().hostedZones()).id(HostedZone::id).name(HostedZone::name),
            AwsCollector.<CloudFormationClient, Stack>of("cloudformation_stacks", CloudFormationClient.class, "AWS::CloudFormation::Stack")
                    .list((c, w) -> c.describeStacksPaginator().stacks()).id(Stack::stackId).name(Stack::stackName)
                    .tags(s -> Tags.of(s.tags(), software.amazon.awssdk.services.cloudformation.model.Tag::key,
                            software.amazon.awssdk.services.cloudformation.model.Tag::value)),
            AwsCollector.<SsmClient, ParameterMetadata>of("ssm_parameters", SsmClient.class, "AWS::SSM::Parameter")
                    .list((c, w) -> c.describeParametersPaginator().stream().flatMap(pg -> pg.parameters().stream())::iterator).id(ParameterMetadata::name)
                    .name(ParameterMetadata::name),
            AwsCollector.<SecretsManagerClient, SecretListEntry>of("secrets", SecretsManagerClient.class, "AWS::SecretsManager::Secret")
                    .list((c, w) -> c.listSecretsPaginator().stream().flatMap(pg -> pg.secretList().stream())::iterator).id(SecretListEntry::arn)
                    .name(SecretListEntry::name),
            AwsCollector.<CloudTrailClient, Trail>of("cloudtrail_trails", CloudTrailClient.class, "AWS::CloudTrail::Trail")
                    .list((c, w) -> c.describeTrails(r -> r.includeShadowTrails(false)).trailList()).id(Trail::trailARN)
                    .name(Trail::name),
            AwsCollector.<ElasticLoadBalancingV2Client, LoadBalancer>of("load_balancers", ElasticLoadBalancingV2Client.class,
                            "AWS::ElasticLoadBalancingV2::LoadBalancer")
                    .list((c, w) -> c.describeLoadBalancersPaginator().loadBalancers()).id(LoadBalancer::loadBalancerArn)
                    .name(LoadBalancer::loadBalancerName),
            AwsCollector.<AutoScalingClient, AutoScalingGroup>of("autoscaling_groups", AutoScalingClient.class,
                            "AWS::AutoScaling::AutoScalingGroup")
                    .list((c, w) -> c.describeAutoScalingGroupsPaginator().autoScalingGroups())
                    .id(AutoScalingGroup::autoScalingGroupName).name(AutoScalingGroup::autoScalingGroupName),
            AwsCollector.<EcrClient, Repository>of("ecr_repositories", EcrClient.class, "AWS::ECR::Repository")
                    .list((c, w) -> c.describeRepositoriesPaginator().repositories()).id(Repository::repositoryName)
                    .name(Repository::repositoryName).arn("arn:aws:ecr:{region}:{account}:repository/{id}"),
            AwsCollector.<ApiGatewayClient, RestApi>of("apigateway_rest_apis", ApiGatewayClient.class, "AWS::ApiGateway::RestApi")
                    .list((c, w) -> c.getRestApisPaginator().items()).id(RestApi::id).name(RestApi::name)
                    .tags(a -> a.tags() == null ? Map.of() : a.tags()),
            AwsCollector.<CloudFrontClient, DistributionSummary>of("cloudfront_distributions", CloudFrontClient.class,
                            "AWS::CloudFront::Distribution")
                    .list((c, w) -> cloudFrontDistributions(c)).id(DistributionSummary::id)
                    .name(DistributionSummary::domainName).arn("arn:aws:cloudfront::{account}:distribution/{id}"),
            AwsCollector.<EfsClient, FileSystemDescription>of("efs_file_systems", EfsClient.class, "AWS::EFS::FileSystem")
                    .list((c, w) -> c.describeFileSystemsPaginator().fileSystems()).id(FileSystemDescription::fileSystemId)
                    .name(FileSystemDescription::name),
            AwsCollector.<ElastiCacheClient, CacheCluster>of("elasticache_clusters", ElastiCacheClient.class,
                            "AWS::ElastiCache::CacheCluster")
                    .list((c, w) -> c.describeCacheClustersPaginator().cacheClusters()).id(CacheCluster::cacheClusterId)
                    .arn("arn:aws:elasticache:{region}:{account}:cluster:{id}"),
            AwsCollector.<AcmClient, CertificateSummary>of("acm_certificates", AcmClient.class, "AWS::CertificateManager::Certificate")
                    .list((c, w) -> c.listCertificatesPaginator().certificateSummaryList())
                    .id(CertificateSummary::certificateArn).name(CertificateSummary::domainName));

    /** Every collector, in catalog order. */
    public static List<AwsCollector<?, ?>> all() {
        return ALL;
    }

    /** The collectors {@code only} (all when empty) minus {@code exclude}; unknown names fail, naming them. */
    public static List<AwsCollector<?, ?>> select(List<String> only, List<String> exclude) {
        Map<String, AwsCollector<?, ?>> byName = new LinkedHashMap<>();
        for (AwsCollector<?, ?> c : ALL) {
            byName.put(c.name(), c);
        }
        for (String n : only) {
            if (!byName.containsKey(n) && !AwsProvider.SWEEPS.contains(n)) {
                throw io.cloudg.resilience.config.ConfigErrors.mustBe("aws.collectors entry",
                        "one of " + String.join(", ", byName.keySet()), n);
            }
        }
        for (String n : exclude) {
            if (!byName.containsKey(n) && !AwsProvider.SWEEPS.contains(n)) {
                throw io.cloudg.resilience.config.ConfigErrors.mustBe("aws.exclude_collectors entry",
                        "one of " + String.join(", ", byName.keySet()), n);
            }
        }
        List<AwsCollector<?, ?>> out = new ArrayList<>();
        for (AwsCollector<?, ?> c : ALL) {
            if ((only.isEmpty() || only.contains(c.name())) && !exclude.contains(c.name())) {
                out.add(c);
            }
        }
        return Collections.unmodifiableList(out);
    }

    /** The resource types the deep collectors cover. */
    public static List<String> coveredTypes() {
        return ALL.stream().map(AwsCollector::type).distinct().collect(Collectors.toList());
    }

    private static Map<String, Object> launchPermissions(Ec2Client c, Image image) {
        List<LaunchPermission> perms = c.describeImageAttribute(r -> r.imageId(image.imageId())
                .attribute(ImageAttributeName.LAUNCH_PERMISSION)).launchPermissions();
        boolean isPublic = perms.stream().anyMatch(p -> "all".equals(p.groupAsString()));
        List<String> accounts = perms.stream().map(LaunchPermission::userId).filter(u -> u != null).sorted()
                .collect(Collectors.toList());
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("public", isPublic);
        m.put("shared_with", accounts);
        return m;
    }

    /**
     * A security group's inbound rules, from the listing itself (no extra call): {@code ingress} is a list of
     * {@code {protocol, from_port, to_port, cidrs, ipv6_cidrs}}; protocol {@code -1} means every protocol and
     * port.
     */
    static Map<String, Object> ingress(SecurityGroup g) {
        List<Map<String, Object>> rules = new ArrayList<>();
        for (IpPermission p : g.ipPermissions()) {
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("protocol", p.ipProtocol());
            r.put("from_port", p.fromPort());
            r.put("to_port", p.toPort());
            r.put("cidrs", p.ipRanges().stream().map(IpRange::cidrIp).filter(x -> x != null).toList());
            r.put("ipv6_cidrs", p.ipv6Ranges().stream().map(Ipv6Range::cidrIpv6).filter(x -> x != null).toList());
            rules.add(r);
        }
        return Map.of("ingress", rules);
    }

    /**
     * An IAM user's MFA devices ({@code mfa_devices}: how many; one ListMFADevices call). A call that could
     * not be answered leaves the attribute out and says why in {@code detail_errors}.
     */
    private static Map<String, Object> mfaDevices(IamClient c, User u) {
        try {
            return Map.of("mfa_devices", c.listMFADevices(r -> r.userName(u.userName())).mfaDevices().size());
        } catch (IamException e) {
            return Map.of("detail_errors", List.of("ListMFADevices: " + errorCode(e)));
        }
    }

    /** S3 error codes that mean "not configured" rather than "could not read". */
    private static final String NO_PUBLIC_ACCESS_BLOCK = "NoSuchPublicAccessBlockConfiguration";
    private static final String NO_BUCKET_POLICY = "NoSuchBucketPolicy";
    private static final List<String> PUBLIC_GRANTEES = List.of("http://acs.amazonaws.com/groups/global/AllUsers",
            "http://acs.amazonaws.com/groups/global/AuthenticatedUsers");

    /**
     * What makes a bucket public, three calls: the bucket's Block Public Access flags
     * ({@code block_public_acls}, {@code ignore_public_acls}, {@code block_public_policy},
     * {@code restrict_public_buckets}; all false when none is configured), whether its policy is public
     * ({@code policy_public}, false without a policy) and whether its ACL grants anything to everyone or to
     * every AWS user ({@code acl_public}). A call that could not be answered leaves its attributes out and
     * says why in {@code detail_errors}, so a scanner can tell "not public" from "not known".
     */
    private static Map<String, Object> bucketExposure(S3Client c, Bucket b) {
        Map<String, Object> m = new LinkedHashMap<>();
        List<String> errors = new ArrayList<>();
        try {
            PublicAccessBlockConfiguration pab = c.getPublicAccessBlock(r -> r.bucket(b.name())).publicAccessBlockConfiguration();
            m.put("block_public_acls", Boolean.TRUE.equals(pab.blockPublicAcls()));
            m.put("ignore_public_acls", Boolean.TRUE.equals(pab.ignorePublicAcls()));
            m.put("block_public_policy", Boolean.TRUE.equals(pab.blockPublicPolicy()));
            m.put("restrict_public_buckets", Boolean.TRUE.equals(pab.restrictPublicBuckets()));
        } catch (S3Exception e) {
            if (NO_PUBLIC_ACCESS_BLOCK.equals(errorCode(e))) {
                for (String k : List.of("block_public_acls", "ignore_public_acls", "block_public_policy", "restrict_public_buckets")) {
                    m.put(k, false);
                }
            } else {
                errors.add("GetPublicAccessBlock: " + errorCode(e));
            }
        }
        try {
            m.put("policy_public", Boolean.TRUE.equals(c.getBucketPolicyStatus(r -> r.bucket(b.name())).policyStatus().isPublic()));
        } catch (S3Exception e) {
            if (NO_BUCKET_POLICY.equals(errorCode(e))) {
                m.put("policy_public", false);
            } else {
                errors.add("GetBucketPolicyStatus: " + errorCode(e));
            }
        }
        try {
            m.put("acl_public", c.getBucketAcl(r -> r.bucket(b.name())).grants().stream()
                    .anyMatch(g -> g.grantee() != null && g.grantee().uri() != null // the owner's grant has an id, no URI
                            && PUBLIC_GRANTEES.contains(g.grantee().uri())));
        } catch (S3Exception e) {
            errors.add("GetBucketAcl: " + errorCode(e));
        }
        if (!errors.isEmpty()) {
            m.put("detail_errors", errors);
        }
        return m;
    }

    private static String errorCode(AwsServiceException e) {
        return e.awsErrorDetails() != null && e.awsErrorDetails().errorCode() != null ? e.awsErrorDetails().errorCode()
                : "HTTP " + e.statusCode();
    }

    /** S3's location constraint as a region: empty is us-east-1, {@code EU} is eu-west-1. */
    static String bucketRegion(String constraint) {
        if (constraint == null || constraint.isEmpty() || constraint.equals("null")) {
            return "us-east-1";
        }
        return constraint.equals("EU") ? "eu-west-1" : constraint;
    }

    private static Iterable<DistributionSummary> cloudFrontDistributions(CloudFrontClient c) {
        List<DistributionSummary> all = new ArrayList<>();
        String marker = null;
        do {
            String m = marker;
            DistributionList page = c.listDistributions(r -> r.marker(m)).distributionList();
            if (page == null) {
                break;
            }
            all.addAll(page.items());
            marker = Boolean.TRUE.equals(page.isTruncated()) ? page.nextMarker() : null;
        } while (marker != null);
        return all;
    }
}
