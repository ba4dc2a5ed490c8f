package io.cloudg.sim.core;

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
    EC2_VPC_ENDPOINT("AWS::EC2::VPCEndpoint", "ec2", Placement.REGIONAL),
    EC2_VPC_PEERING("AWS::EC2::VPCPeeringConnection", "ec2", Placement.REGIONAL),
    EC2_TRANSIT_GATEWAY("AWS::EC2::TransitGateway", "ec2", Placement.REGIONAL),
    EC2_TRANSIT_GATEWAY_ATTACHMENT("AWS::EC2::TransitGatewayAttachment", "ec2", Placement.REGIONAL),
    EC2_TRANSIT_GATEWAY_ROUTE_TABLE("AWS::EC2::TransitGatewayRouteTable", "ec2", Placement.REGIONAL),
    EC2_FLOW_LOG("AWS::EC2::FlowLog", "ec2", Placement.REGIONAL),
    EC2_NETWORK_ACL("AWS::EC2::NetworkAcl", "ec2", Placement.REGIONAL),
    EC2_CUSTOMER_GATEWAY("AWS::EC2::CustomerGateway", "ec2", Placement.REGIONAL),
    EC2_VPN_GATEWAY("AWS::EC2::VPNGateway", "ec2", Placement.REGIONAL),
    EC2_VPN_CONNECTION("AWS::EC2::VPNConnection", "ec2", Placement.REGIONAL),
    EC2_DHCP_OPTIONS("AWS::EC2::DHCPOptions", "ec2", Placement.REGIONAL),
    EC2_EGRESS_ONLY_IGW("AWS::EC2::EgressOnlyInternetGateway", "ec2", Placement.REGIONAL),
    EC2_PLACEMENT_GROUP("AWS::EC2::PlacementGroup", "ec2", Placement.REGIONAL),
    EC2_PREFIX_LIST("AWS::EC2::PrefixList", "ec2", Placement.REGIONAL),
    EC2_CAPACITY_RESERVATION("AWS::EC2::CapacityReservation", "ec2", Placement.REGIONAL),
    EC2_FLEET("AWS::EC2::EC2Fleet", "ec2", Placement.REGIONAL),
    EC2_SPOT_FLEET("AWS::EC2::SpotFleet", "ec2", Placement.REGIONAL),
    EC2_HOST("AWS::EC2::Host", "ec2", Placement.REGIONAL),
    EC2_VPC_ENDPOINT_SERVICE("AWS::EC2::VPCEndpointService", "ec2", Placement.REGIONAL),
    EC2_TRAFFIC_MIRROR_SESSION("AWS::EC2::TrafficMirrorSession", "ec2", Placement.REGIONAL),
    EC2_CLIENT_VPN_ENDPOINT("AWS::EC2::ClientVpnEndpoint", "ec2", Placement.REGIONAL),
    IAM_INSTANCE_PROFILE("AWS::IAM::InstanceProfile", "iam", Placement.GLOBAL),
    IAM_SAML_PROVIDER("AWS::IAM::SAMLProvider", "iam", Placement.GLOBAL),
    IAM_OIDC_PROVIDER("AWS::IAM::OIDCProvider", "iam", Placement.GLOBAL),
    IAM_SERVER_CERTIFICATE("AWS::IAM::ServerCertificate", "iam", Placement.GLOBAL),
    IAM_PASSWORD_POLICY("AWS::IAM::AccountPasswordPolicy", "iam", Placement.GLOBAL),
    IAM_VIRTUAL_MFA_DEVICE("AWS::IAM::VirtualMFADevice", "iam", Placement.GLOBAL),
    KMS_ALIAS("AWS::KMS::Alias", "kms", Placement.REGIONAL),
    LAMBDA_LAYER("AWS::Lambda::LayerVersion", "lambda", Placement.REGIONAL),
    LAMBDA_EVENT_SOURCE_MAPPING("AWS::Lambda::EventSourceMapping", "lambda", Placement.REGIONAL),
    RDS_DB_SNAPSHOT("AWS::RDS::DBSnapshot", "rds", Placement.REGIONAL),
    RDS_DB_CLUSTER_SNAPSHOT("AWS::RDS::DBClusterSnapshot", "rds", Placement.REGIONAL),
    RDS_DB_SUBNET_GROUP("AWS::RDS::DBSubnetGroup", "rds", Placement.REGIONAL),
    RDS_DB_PARAMETER_GROUP("AWS::RDS::DBParameterGroup", "rds", Placement.REGIONAL),
    RDS_OPTION_GROUP("AWS::RDS::OptionGroup", "rds", Placement.REGIONAL),
    RDS_EVENT_SUBSCRIPTION("AWS::RDS::EventSubscription", "rds", Placement.REGIONAL),
    RDS_DB_PROXY("AWS::RDS::DBProxy", "rds", Placement.REGIONAL),
    DYNAMODB_BACKUP("AWS::DynamoDB::Backup", "dynamodb", Placement.REGIONAL),
    ECS_SERVICE("AWS::ECS::Service", "ecs", Placement.REGIONAL),
    ECS_TASK_DEFINITION("AWS::ECS::TaskDefinition", "ecs", Placement.REGIONAL),
    EKS_NODEGROUP("AWS::EKS::Nodegroup", "eks", Placement.REGIONAL),
    ELB_LOAD_BALANCER("AWS::ElasticLoadBalancing::LoadBalancer", "elb", Placement.REGIONAL),
    ELBV2_LISTENER("AWS::ElasticLoadBalancingV2::Listener", "elbv2", Placement.REGIONAL),
    ELBV2_TARGET_GROUP("AWS::ElasticLoadBalancingV2::TargetGroup", "elbv2", Placement.REGIONAL),
    ROUTE53_RECORD_SET("AWS::Route53::RecordSet", "route53", Placement.GLOBAL),
    ROUTE53_HEALTH_CHECK("AWS::Route53::HealthCheck", "route53", Placement.GLOBAL),
    CONFIG_RECORDER("AWS::Config::ConfigurationRecorder", "config", Placement.REGIONAL),
    CONFIG_RULE("AWS::Config::ConfigRule", "config", Placement.REGIONAL),
    CONFIG_DELIVERY_CHANNEL("AWS::Config::DeliveryChannel", "config", Placement.REGIONAL),
    CONFIG_AGGREGATOR("AWS::Config::ConfigurationAggregator", "config", Placement.REGIONAL),
    GUARDDUTY_DETECTOR("AWS::GuardDuty::Detector", "guardduty", Placement.REGIONAL),
    SECURITYHUB_HUB("AWS::SecurityHub::Hub", "securityhub", Placement.REGIONAL),
    SECURITYHUB_STANDARD("AWS::SecurityHub::Standard", "securityhub", Placement.REGIONAL),
    ORGANIZATIONS_POLICY("AWS::Organizations::Policy", "organizations", Placement.GLOBAL),
    SNS_SUBSCRIPTION("AWS::SNS::Subscription", "sns", Placement.REGIONAL),
    SSM_DOCUMENT("AWS::SSM::Document", "ssm", Placement.REGIONAL),
    SSM_MANAGED_INSTANCE("AWS::SSM::ManagedInstance", "ssm", Placement.REGIONAL),
    SSM_PATCH_BASELINE("AWS::SSM::PatchBaseline", "ssm", Placement.REGIONAL),
    CLOUDWATCH_DASHBOARD("AWS::CloudWatch::Dashboard", "cloudwatch", Placement.REGIONAL),
    LOGS_DESTINATION("AWS::Logs::Destination", "logs", Placement.REGIONAL),
    ECR_REGISTRY_SCANNING("AWS::ECR::RegistryScanningConfiguration", "ecr", Placement.REGIONAL),
    EFS_ACCESS_POINT("AWS::EFS::AccessPoint", "efs", Placement.REGIONAL),
    ELASTICACHE_REPLICATION_GROUP("AWS::ElastiCache::ReplicationGroup", "elasticache", Placement.REGIONAL),
    ELASTICACHE_SUBNET_GROUP("AWS::ElastiCache::SubnetGroup", "elasticache", Placement.REGIONAL),
    ELASTICACHE_SNAPSHOT("AWS::ElastiCache::Snapshot", "elasticache", Placement.REGIONAL),
    REDSHIFT_CLUSTER("AWS::Redshift::Cluster", "redshift", Placement.REGIONAL),
    REDSHIFT_SUBNET_GROUP("AWS::Redshift::ClusterSubnetGroup", "redshift", Placement.REGIONAL),
    OPENSEARCH_DOMAIN("AWS::OpenSearchService::Domain", "opensearch", Placement.REGIONAL),
    KINESIS_STREAM("AWS::Kinesis::Stream", "kinesis", Placement.REGIONAL),
    FIREHOSE_DELIVERY_STREAM("AWS::KinesisFirehose::DeliveryStream", "firehose", Placement.REGIONAL),
    GLUE_DATABASE("AWS::Glue::Database", "glue", Placement.REGIONAL),
    GLUE_JOB("AWS::Glue::Job", "glue", Placement.REGIONAL),
    GLUE_CRAWLER("AWS::Glue::Crawler", "glue", Placement.REGIONAL),
    GLUE_CONNECTION("AWS::Glue::Connection", "glue", Placement.REGIONAL),
    GLUE_TRIGGER("AWS::Glue::Trigger", "glue", Placement.REGIONAL),
    ATHENA_WORKGROUP("AWS::Athena::WorkGroup", "athena", Placement.REGIONAL),
    ATHENA_DATA_CATALOG("AWS::Athena::DataCatalog", "athena", Placement.REGIONAL),
    APIGATEWAY_STAGE("AWS::ApiGateway::Stage", "apigateway", Placement.REGIONAL),
    APIGATEWAY_DOMAIN_NAME("AWS::ApiGateway::DomainName", "apigateway", Placement.REGIONAL),
    APIGATEWAYV2_API("AWS::ApiGatewayV2::Api", "apigatewayv2", Placement.REGIONAL),
    APIGATEWAYV2_DOMAIN_NAME("AWS::ApiGatewayV2::DomainName", "apigatewayv2", Placement.REGIONAL),
    COGNITO_USER_POOL("AWS::Cognito::UserPool", "cognitoidp", Placement.REGIONAL),
    COGNITO_IDENTITY_POOL("AWS::Cognito::IdentityPool", "cognitoidentity", Placement.REGIONAL),
    SFN_STATE_MACHINE("AWS::StepFunctions::StateMachine", "stepfunctions", Placement.REGIONAL),
    SFN_ACTIVITY("AWS::StepFunctions::Activity", "stepfunctions", Placement.REGIONAL),
    EVENTS_EVENT_BUS("AWS::Events::EventBus", "events", Placement.REGIONAL),
    EVENTS_RULE("AWS::Events::Rule", "events", Placement.REGIONAL),
    BACKUP_VAULT("AWS::Backup::BackupVault", "backup", Placement.REGIONAL),
    BACKUP_PLAN("AWS::Backup::BackupPlan", "backup", Placement.REGIONAL),
    WAFV2_WEB_ACL("AWS::WAFv2::WebACL", "wafv2", Placement.REGIONAL),
    WAFV2_IP_SET("AWS::WAFv2::IPSet", "wafv2", Placement.REGIONAL),
    WAFV2_RULE_GROUP("AWS::WAFv2::RuleGroup", "wafv2", Placement.REGIONAL),
    ACCESSANALYZER_ANALYZER("AWS::AccessAnalyzer::Analyzer", "accessanalyzer", Placement.REGIONAL),
    AUTOSCALING_LAUNCH_CONFIGURATION("AWS::AutoScaling::LaunchConfiguration", "autoscaling", Placement.REGIONAL),
    SAGEMAKER_NOTEBOOK_INSTANCE("AWS::SageMaker::NotebookInstance", "sagemaker", Placement.REGIONAL),
    SAGEMAKER_ENDPOINT("AWS::SageMaker::Endpoint", "sagemaker", Placement.REGIONAL),
    SAGEMAKER_MODEL("AWS::SageMaker::Model", "sagemaker", Placement.REGIONAL),
    SAGEMAKER_DOMAIN("AWS::SageMaker::Domain", "sagemaker", Placement.REGIONAL),
    CODEBUILD_PROJECT("AWS::CodeBuild::Project", "codebuild", Placement.REGIONAL),
    CODEBUILD_REPORT_GROUP("AWS::CodeBuild::ReportGroup", "codebuild", Placement.REGIONAL),
    MSK_CLUSTER("AWS::MSK::Cluster", "kafka", Placement.REGIONAL),
    CLOUDFORMATION_STACK_SET("AWS::CloudFormation::StackSet", "cloudformation", Placement.REGIONAL),
    EMR_CLUSTER("AWS::EMR::Cluster", "emr", Placement.REGIONAL),
    CODEPIPELINE_PIPELINE("AWS::CodePipeline::Pipeline", "codepipeline", Placement.REGIONAL),
    TRANSFER_SERVER("AWS::Transfer::Server", "transfer", Placement.REGIONAL),
    MQ_BROKER("AWS::AmazonMQ::Broker", "mq", Placement.REGIONAL),
    FSX_FILE_SYSTEM("AWS::FSx::FileSystem", "fsx", Placement.REGIONAL),
    BATCH_COMPUTE_ENVIRONMENT("AWS::Batch::ComputeEnvironment", "batch", Placement.REGIONAL),
    BATCH_JOB_QUEUE("AWS::Batch::JobQueue", "batch", Placement.REGIONAL),
    APPSYNC_GRAPHQL_API("AWS::AppSync::GraphQLApi", "appsync", Placement.REGIONAL),
    NETWORKFIREWALL_FIREWALL("AWS::NetworkFirewall::Firewall", "networkfirewall", Placement.REGIONAL),
    CLOUDTRAIL_EVENT_DATA_STORE("AWS::CloudTrail::EventDataStore", "cloudtrail", Placement.REGIONAL),
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
