package io.cloudg.sim.estate;

import java.util.HashMap;
import java.util.Map;

/**
 * Every AWS resource type the simulated estate can hold, named as CloudFormation names it.
 *
 * <p>{@link #service()} is the botocore service name (the one cloudg's governor keys use).
 * {@link #placement()} says where the type lives and is listed. The truth {@code id} of each type is the
 * identifier exactly as its listing API returns it: EC2 ids ({@code vpc-...}, {@code i-...}, key pair
 * <em>name</em>, Elastic IP allocation id), IAM user/role/group names and customer-managed policy ARNs,
 * bucket names, function names, DB instance/cluster identifiers, table names, topic ARNs, queue URLs, KMS
 * key ids, ECS cluster ARNs, EKS cluster names, alarm names, log group names, hosted zone ids as the SDK returns them
 * ({@code Z...}: the wire carries {@code /hostedzone/Z...} and the SDK strips the prefix), stack ids (ARNs), parameter names, secret ARNs, trail ARNs, load
 * balancer ARNs, Auto Scaling group names, repository names, REST API ids, distribution ids, file system
 * ids, cache cluster ids, certificate ARNs and account ids.
 */
public enum AwsType {
    EC2_VPC("AWS::EC2::VPC", "ec2", Placement.REGIONAL),
    EC2_SUBNET("AWS::EC2::Subnet", "ec2", Placement.REGIONAL),
    EC2_SECURITY_GROUP("AWS::EC2::SecurityGroup", "ec2", Placement.REGIONAL),
    EC2_NETWORK_INTERFACE("AWS::EC2::NetworkInterface", "ec2", Placement.REGIONAL),
    EC2_INSTANCE("AWS::EC2::Instance", "ec2", Placement.REGIONAL),
    EC2_VOLUME("AWS::EC2::Volume", "ec2", Placement.REGIONAL),
    EC2_SNAPSHOT("AWS::EC2::Snapshot", "ec2", Placement.REGIONAL),
    EC2_IMAGE("AWS::EC2::Image", "ec2", Placement.REGIONAL),
    EC2_INTERNET_GATEWAY("AWS::EC2::InternetGateway", "ec2", Placement.REGIONAL),
    EC2_NAT_GATEWAY("AWS::EC2::NatGateway", "ec2", Placement.REGIONAL),
    EC2_ROUTE_TABLE("AWS::EC2::RouteTable", "ec2", Placement.REGIONAL),
    EC2_KEY_PAIR("AWS::EC2::KeyPair", "ec2", Placement.REGIONAL),
    EC2_EIP("AWS::EC2::EIP", "ec2", Placement.REGIONAL),
    EC2_LAUNCH_TEMPLATE("AWS::EC2::LaunchTemplate", "ec2", Placement.REGIONAL),
    IAM_USER("AWS::IAM::User", "iam", Placement.GLOBAL),
    IAM_ROLE("AWS::IAM::Role", "iam", Placement.GLOBAL),
    IAM_POLICY("AWS::IAM::ManagedPolicy", "iam", Placement.GLOBAL),
    IAM_GROUP("AWS::IAM::Group", "iam", Placement.GLOBAL),
    S3_BUCKET("AWS::S3::Bucket", "s3", Placement.ACCOUNT),
    LAMBDA_FUNCTION("AWS::Lambda::Function", "lambda", Placement.REGIONAL),
    RDS_DB_INSTANCE("AWS::RDS::DBInstance", "rds", Placement.REGIONAL),
    RDS_DB_CLUSTER("AWS::RDS::DBCluster", "rds", Placement.REGIONAL),
    DYNAMODB_TABLE("AWS::DynamoDB::Table", "dynamodb", Placement.REGIONAL),
    SNS_TOPIC("AWS::SNS::Topic", "sns", Placement.REGIONAL),
    SQS_QUEUE("AWS::SQS::Queue", "sqs", Placement.REGIONAL),
    KMS_KEY("AWS::KMS::Key", "kms", Placement.REGIONAL),
    ECS_CLUSTER("AWS::ECS::Cluster", "ecs", Placement.REGIONAL),
    EKS_CLUSTER("AWS::EKS::Cluster", "eks", Placement.REGIONAL),
    CLOUDWATCH_ALARM("AWS::CloudWatch::Alarm", "cloudwatch", Placement.REGIONAL),
    LOGS_LOG_GROUP("AWS::Logs::LogGroup", "logs", Placement.REGIONAL),
    ROUTE53_HOSTED_ZONE("AWS::Route53::HostedZone", "route53", Placement.GLOBAL),
    CLOUDFORMATION_STACK("AWS::CloudFormation::Stack", "cloudformation", Placement.REGIONAL),
    SSM_PARAMETER("AWS::SSM::Parameter", "ssm", Placement.REGIONAL),
    SECRETSMANAGER_SECRET("AWS::SecretsManager::Secret", "secretsmanager", Placement.REGIONAL),
    CLOUDTRAIL_TRAIL("AWS::CloudTrail::Trail", "cloudtrail", Placement.REGIONAL),
    ELBV2_LOAD_BALANCER("AWS::ElasticLoadBalancingV2::LoadBalancer", "elbv2", Placement.REGIONAL),
    AUTOSCALING_GROUP("AWS::AutoScaling::AutoScalingGroup", "autoscaling", Placement.REGIONAL),
    ECR_REPOSITORY("AWS::ECR::Repository", "ecr", Placement.REGIONAL),
    APIGATEWAY_REST_API("AWS::ApiGateway::RestApi", "apigateway", Placement.REGIONAL),
    CLOUDFRONT_DISTRIBUTION("AWS::CloudFront::Distribution", "cloudfront", Placement.GLOBAL),
    EFS_FILE_SYSTEM("AWS::EFS::FileSystem", "efs", Placement.REGIONAL),
    ELASTICACHE_CACHE_CLUSTER("AWS::ElastiCache::CacheCluster", "elasticache", Placement.REGIONAL),
    ACM_CERTIFICATE("AWS::CertificateManager::Certificate", "acm", Placement.REGIONAL),
    /** Member accounts of the organization; generated from {@code aws.accounts}, not from counts. */
    ORGANIZATIONS_ACCOUNT("AWS::Organizations::Account", "organizations", Placement.GLOBAL);

    /** Where a type lives and from where it is listed. */
    public enum Placement {
        /** Lives in one region and is listed there. */
        REGIONAL,
        /** Region {@code global}; listed from any region. */
        GLOBAL,
        /** Lives in one region but the listing is account-wide (S3 buckets). */
        ACCOUNT
    }

    private static final Map<String, AwsType> BY_CFN = new HashMap<>();

    static {
        for (AwsType t : values()) {
            BY_CFN.put(t.cfnType, t);
        }
    }

    private final String cfnType;
    private final String service;
    private final Placement placement;

    AwsType(String cfnType, String service, Placement placement) {
        this.cfnType = cfnType;
        this.service = service;
        this.placement = placement;
    }

    public String cfnType() {
        return cfnType;
    }

    public String service() {
        return service;
    }

    public Placement placement() {
        return placement;
    }

    /** Whether the estate file sets a count for this type (accounts come from {@code aws.accounts}). */
    public boolean countable() {
        return this != ORGANIZATIONS_ACCOUNT;
    }

    /** The type for a CloudFormation type name, or null. */
    public static AwsType byCfnType(String cfnType) {
        return BY_CFN.get(cfnType);
    }
}
