package io.cloudg.sim.aws;

import io.cloudg.sim.core.AwsType;
import java.util.Map;

/**
 * The operations declared as data ({@link ModelOperations}), one line each: the listings of the resource types
 * the estate generates from {@link io.cloudg.sim.estate.ModelTypes}, their per-item calls, and the per-item calls
 * cloudg's collectors make on the older types (a bucket's encryption, a key's rotation status, a user's access
 * keys). Each item and answer is assembled from assignments ({@code Member=source}: a resource's {@code id},
 * {@code name}, {@code arn}, {@code created}, {@code tags}... or a {@code 'literal'} in which {@code {region}},
 * {@code {account}}, {@code {id}} and {@code {name}} are filled in). The values are plausible, the shapes are
 * the SDK's: every member named here exists in the 2.40.2 model, or the simulator does not start.
 */
final class ModelCatalog {
    private static final Map<AwsService, Class<?>> CLIENTS = Map.ofEntries(
        Map.entry(AwsService.EC2, software.amazon.awssdk.services.ec2.Ec2Client.class),
        Map.entry(AwsService.IAM, software.amazon.awssdk.services.iam.IamClient.class),
        Map.entry(AwsService.S3, software.amazon.awssdk.services.s3.S3Client.class),
        Map.entry(AwsService.LAMBDA, software.amazon.awssdk.services.lambda.LambdaClient.class),
        Map.entry(AwsService.RDS, software.amazon.awssdk.services.rds.RdsClient.class),
        Map.entry(AwsService.DYNAMODB, software.amazon.awssdk.services.dynamodb.DynamoDbClient.class),
        Map.entry(AwsService.SNS, software.amazon.awssdk.services.sns.SnsClient.class),
        Map.entry(AwsService.SQS, software.amazon.awssdk.services.sqs.SqsClient.class),
        Map.entry(AwsService.KMS, software.amazon.awssdk.services.kms.KmsClient.class),
        Map.entry(AwsService.ECS, software.amazon.awssdk.services.ecs.EcsClient.class),
        Map.entry(AwsService.EKS, software.amazon.awssdk.services.eks.EksClient.class),
        Map.entry(AwsService.CLOUDWATCH, software.amazon.awssdk.services.cloudwatch.CloudWatchClient.class),
        Map.entry(AwsService.LOGS, software.amazon.awssdk.services.cloudwatchlogs.CloudWatchLogsClient.class),
        Map.entry(AwsService.ROUTE53, software.amazon.awssdk.services.route53.Route53Client.class),
        Map.entry(AwsService.CLOUDFORMATION, software.amazon.awssdk.services.cloudformation.CloudFormationClient.class),
        Map.entry(AwsService.SSM, software.amazon.awssdk.services.ssm.SsmClient.class),
        Map.entry(AwsService.SECRETSMANAGER, software.amazon.awssdk.services.secretsmanager.SecretsManagerClient.class),
        Map.entry(AwsService.CLOUDTRAIL, software.amazon.awssdk.services.cloudtrail.CloudTrailClient.class),
        Map.entry(AwsService.ELBV2, software.amazon.awssdk.services.elasticloadbalancingv2.ElasticLoadBalancingV2Client.class),
        Map.entry(AwsService.ELB, software.amazon.awssdk.services.elasticloadbalancing.ElasticLoadBalancingClient.class),
        Map.entry(AwsService.AUTOSCALING, software.amazon.awssdk.services.autoscaling.AutoScalingClient.class),
        Map.entry(AwsService.ECR, software.amazon.awssdk.services.ecr.EcrClient.class),
        Map.entry(AwsService.APIGATEWAY, software.amazon.awssdk.services.apigateway.ApiGatewayClient.class),
        Map.entry(AwsService.APIGATEWAYV2, software.amazon.awssdk.services.apigatewayv2.ApiGatewayV2Client.class),
        Map.entry(AwsService.EFS, software.amazon.awssdk.services.efs.EfsClient.class),
        Map.entry(AwsService.ELASTICACHE, software.amazon.awssdk.services.elasticache.ElastiCacheClient.class),
        Map.entry(AwsService.ACM, software.amazon.awssdk.services.acm.AcmClient.class),
        Map.entry(AwsService.CONFIG, software.amazon.awssdk.services.config.ConfigClient.class),
        Map.entry(AwsService.GUARDDUTY, software.amazon.awssdk.services.guardduty.GuardDutyClient.class),
        Map.entry(AwsService.SECURITYHUB, software.amazon.awssdk.services.securityhub.SecurityHubClient.class),
        Map.entry(AwsService.REDSHIFT, software.amazon.awssdk.services.redshift.RedshiftClient.class),
        Map.entry(AwsService.OPENSEARCH, software.amazon.awssdk.services.opensearch.OpenSearchClient.class),
        Map.entry(AwsService.KINESIS, software.amazon.awssdk.services.kinesis.KinesisClient.class),
        Map.entry(AwsService.FIREHOSE, software.amazon.awssdk.services.firehose.FirehoseClient.class),
        Map.entry(AwsService.GLUE, software.amazon.awssdk.services.glue.GlueClient.class),
        Map.entry(AwsService.ATHENA, software.amazon.awssdk.services.athena.AthenaClient.class),
        Map.entry(AwsService.COGNITOIDP, software.amazon.awssdk.services.cognitoidentityprovider.CognitoIdentityProviderClient.class),
        Map.entry(AwsService.COGNITOIDENTITY, software.amazon.awssdk.services.cognitoidentity.CognitoIdentityClient.class),
        Map.entry(AwsService.STEPFUNCTIONS, software.amazon.awssdk.services.sfn.SfnClient.class),
        Map.entry(AwsService.EVENTS, software.amazon.awssdk.services.eventbridge.EventBridgeClient.class),
        Map.entry(AwsService.BACKUP, software.amazon.awssdk.services.backup.BackupClient.class),
        Map.entry(AwsService.WAFV2, software.amazon.awssdk.services.wafv2.Wafv2Client.class),
        Map.entry(AwsService.ACCESSANALYZER, software.amazon.awssdk.services.accessanalyzer.AccessAnalyzerClient.class),
        Map.entry(AwsService.SAGEMAKER, software.amazon.awssdk.services.sagemaker.SageMakerClient.class),
        Map.entry(AwsService.CODEBUILD, software.amazon.awssdk.services.codebuild.CodeBuildClient.class),
        Map.entry(AwsService.KAFKA, software.amazon.awssdk.services.kafka.KafkaClient.class),
        Map.entry(AwsService.EMR, software.amazon.awssdk.services.emr.EmrClient.class),
        Map.entry(AwsService.CODEPIPELINE, software.amazon.awssdk.services.codepipeline.CodePipelineClient.class),
        Map.entry(AwsService.TRANSFER, software.amazon.awssdk.services.transfer.TransferClient.class),
        Map.entry(AwsService.MQ, software.amazon.awssdk.services.mq.MqClient.class),
        Map.entry(AwsService.FSX, software.amazon.awssdk.services.fsx.FSxClient.class),
        Map.entry(AwsService.BATCH, software.amazon.awssdk.services.batch.BatchClient.class),
        Map.entry(AwsService.APPSYNC, software.amazon.awssdk.services.appsync.AppSyncClient.class),
        Map.entry(AwsService.NETWORKFIREWALL, software.amazon.awssdk.services.networkfirewall.NetworkFirewallClient.class),
        Map.entry(AwsService.ORGANIZATIONS, software.amazon.awssdk.services.organizations.OrganizationsClient.class));

    private ModelCatalog() {
    }

    /** The SDK client interface of a service, where its operations' request and response classes are found. */
    static Class<?> client(AwsService s) {
        Class<?> c = CLIENTS.get(s);
        if (c == null) {
            throw new IllegalArgumentException("no SDK client for " + s + " in ModelCatalog");
        }
        return c;
    }

    /** The error code a service answers for a resource that does not exist. */
    static String notFoundCode(AwsService s) {
        return switch (s) {
            case IAM -> "NoSuchEntity";
            case S3 -> "NoSuchBucket";
            case SQS -> "AWS.SimpleQueueService.NonExistentQueue";
            case KMS -> "NotFoundException";
            case ECR -> "RepositoryNotFoundException";
            case ELBV2, ELB -> "LoadBalancerNotFound";
            case CLOUDTRAIL -> "TrailNotFoundException";
            case EFS -> "FileSystemNotFound";
            case GUARDDUTY, KAFKA, MQ, BATCH, APPSYNC -> "BadRequestException";
            default -> "ResourceNotFoundException";
        };
    }

    static void register(ModelOperations m) {
        m.list(AwsService.EC2, "DescribeVpcEndpoints", AwsType.EC2_VPC_ENDPOINT, "VpcEndpoints", "VpcEndpointId=id", "Tags=tags", "VpcEndpointType='Gateway'", "State='available'", "ServiceName='com.amazonaws.{region}.s3'", "CreationTimestamp=created");
        m.list(AwsService.EC2, "DescribeVpcPeeringConnections", AwsType.EC2_VPC_PEERING, "VpcPeeringConnections", "VpcPeeringConnectionId=id", "Tags=tags");
        m.list(AwsService.EC2, "DescribeTransitGateways", AwsType.EC2_TRANSIT_GATEWAY, "TransitGateways", "TransitGatewayId=id", "Tags=tags", "TransitGatewayArn=arn", "State='available'", "CreationTime=created");
        m.list(AwsService.EC2, "DescribeTransitGatewayAttachments", AwsType.EC2_TRANSIT_GATEWAY_ATTACHMENT, "TransitGatewayAttachments", "TransitGatewayAttachmentId=id", "Tags=tags", "ResourceType='vpc'", "State='available'");
        m.list(AwsService.EC2, "DescribeTransitGatewayRouteTables", AwsType.EC2_TRANSIT_GATEWAY_ROUTE_TABLE, "TransitGatewayRouteTables", "TransitGatewayRouteTableId=id", "Tags=tags", "State='available'");
        m.list(AwsService.EC2, "DescribeFlowLogs", AwsType.EC2_FLOW_LOG, "FlowLogs", "FlowLogId=id", "Tags=tags", "FlowLogStatus='ACTIVE'", "TrafficType='ALL'", "LogDestinationType='cloud-watch-logs'", "CreationTime=created");
        m.list(AwsService.EC2, "DescribeNetworkAcls", AwsType.EC2_NETWORK_ACL, "NetworkAcls", "NetworkAclId=id", "Tags=tags", "IsDefault='false'");
        m.list(AwsService.EC2, "DescribeCustomerGateways", AwsType.EC2_CUSTOMER_GATEWAY, "CustomerGateways", "CustomerGatewayId=id", "Tags=tags", "State='available'", "Type='ipsec.1'", "BgpAsn='65000'");
        m.list(AwsService.EC2, "DescribeVpnGateways", AwsType.EC2_VPN_GATEWAY, "VpnGateways", "VpnGatewayId=id", "Tags=tags", "State='available'", "Type='ipsec.1'");
        m.list(AwsService.EC2, "DescribeVpnConnections", AwsType.EC2_VPN_CONNECTION, "VpnConnections", "VpnConnectionId=id", "Tags=tags", "State='available'", "Type='ipsec.1'");
        m.list(AwsService.EC2, "DescribeDhcpOptions", AwsType.EC2_DHCP_OPTIONS, "DhcpOptions", "DhcpOptionsId=id", "Tags=tags", "OwnerId=account");
        m.list(AwsService.EC2, "DescribeEgressOnlyInternetGateways", AwsType.EC2_EGRESS_ONLY_IGW, "EgressOnlyInternetGateways", "EgressOnlyInternetGatewayId=id", "Tags=tags");
        m.list(AwsService.EC2, "DescribePlacementGroups", AwsType.EC2_PLACEMENT_GROUP, "PlacementGroups", "GroupId=id", "Tags=tags", "GroupName=name", "Strategy='cluster'", "State='available'");
        m.list(AwsService.EC2, "DescribeManagedPrefixLists", AwsType.EC2_PREFIX_LIST, "PrefixLists", "PrefixListId=id", "Tags=tags", "PrefixListName=name", "PrefixListArn=arn", "State='create-complete'", "OwnerId=account");
        m.list(AwsService.EC2, "DescribeCapacityReservations", AwsType.EC2_CAPACITY_RESERVATION, "CapacityReservations", "CapacityReservationId=id", "Tags=tags", "CapacityReservationArn=arn", "InstanceType='m5.large'", "State='active'", "CreateDate=created");
        m.list(AwsService.EC2, "DescribeFleets", AwsType.EC2_FLEET, "Fleets", "FleetId=id", "Tags=tags", "FleetState='active'", "CreateTime=created");
        m.list(AwsService.EC2, "DescribeSpotFleetRequests", AwsType.EC2_SPOT_FLEET, "SpotFleetRequestConfigs", "SpotFleetRequestId=id", "Tags=tags", "SpotFleetRequestState='active'", "CreateTime=created");
        m.list(AwsService.EC2, "DescribeHosts", AwsType.EC2_HOST, "Hosts", "HostId=id", "Tags=tags", "State='available'", "AvailabilityZone=zone");
        m.list(AwsService.EC2, "DescribeVpcEndpointServiceConfigurations", AwsType.EC2_VPC_ENDPOINT_SERVICE, "ServiceConfigurations", "ServiceId=id", "Tags=tags", "ServiceState='Available'", "AcceptanceRequired='true'");
        m.list(AwsService.EC2, "DescribeTrafficMirrorSessions", AwsType.EC2_TRAFFIC_MIRROR_SESSION, "TrafficMirrorSessions", "TrafficMirrorSessionId=id", "Tags=tags", "SessionNumber='1'");
        m.list(AwsService.EC2, "DescribeClientVpnEndpoints", AwsType.EC2_CLIENT_VPN_ENDPOINT, "ClientVpnEndpoints", "ClientVpnEndpointId=id", "Tags=tags", "CreationTime=created");
        m.list(AwsService.IAM, "ListInstanceProfiles", AwsType.IAM_INSTANCE_PROFILE, "InstanceProfiles", "InstanceProfileName=id", "InstanceProfileId='AIPA{account}'", "Arn=arn", "Path='/'", "CreateDate=created");
        m.list(AwsService.IAM, "ListSAMLProviders", AwsType.IAM_SAML_PROVIDER, "SAMLProviderList", "Arn=id", "CreateDate=created");
        m.list(AwsService.IAM, "ListOpenIDConnectProviders", AwsType.IAM_OIDC_PROVIDER, "OpenIDConnectProviderList", "Arn=id");
        m.list(AwsService.IAM, "ListServerCertificates", AwsType.IAM_SERVER_CERTIFICATE, "ServerCertificateMetadataList", "ServerCertificateName=id", "ServerCertificateId='ASCA{account}'", "Arn=arn", "Path='/'", "UploadDate=created");
        m.singleton(AwsService.IAM, "GetAccountPasswordPolicy", AwsType.IAM_PASSWORD_POLICY, "NoSuchEntity", "PasswordPolicy.MinimumPasswordLength='14'", "PasswordPolicy.RequireSymbols='true'", "PasswordPolicy.RequireNumbers='true'", "PasswordPolicy.RequireUppercaseCharacters='true'", "PasswordPolicy.RequireLowercaseCharacters='true'", "PasswordPolicy.AllowUsersToChangePassword='true'", "PasswordPolicy.MaxPasswordAge='90'", "PasswordPolicy.PasswordReusePrevention='24'", "PasswordPolicy.ExpirePasswords='true'");
        m.list(AwsService.IAM, "ListVirtualMFADevices", AwsType.IAM_VIRTUAL_MFA_DEVICE, "VirtualMFADevices", "SerialNumber=id", "EnableDate=created");
        m.list(AwsService.KMS, "ListAliases", AwsType.KMS_ALIAS, "Aliases", "AliasName=id", "AliasArn=arn", "CreationDate=created");
        m.list(AwsService.LAMBDA, "ListLayers", AwsType.LAMBDA_LAYER, "Layers", "LayerName=id", "LayerArn=arn");
        m.list(AwsService.LAMBDA, "ListEventSourceMappings", AwsType.LAMBDA_EVENT_SOURCE_MAPPING, "EventSourceMappings", "UUID=id", "EventSourceMappingArn=arn", "State='Enabled'", "BatchSize='10'");
        m.list(AwsService.RDS, "DescribeDBSnapshots", AwsType.RDS_DB_SNAPSHOT, "DBSnapshots", "DBSnapshotIdentifier=id", "DBSnapshotArn=arn", "Engine='postgres'", "Status='available'", "SnapshotType='manual'", "SnapshotCreateTime=created", "Encrypted='true'");
        m.list(AwsService.RDS, "DescribeDBClusterSnapshots", AwsType.RDS_DB_CLUSTER_SNAPSHOT, "DBClusterSnapshots", "DBClusterSnapshotIdentifier=id", "DBClusterSnapshotArn=arn", "Engine='aurora-postgresql'", "Status='available'", "SnapshotCreateTime=created", "StorageEncrypted='true'");
        m.list(AwsService.RDS, "DescribeDBSubnetGroups", AwsType.RDS_DB_SUBNET_GROUP, "DBSubnetGroups", "DBSubnetGroupName=id", "DBSubnetGroupArn=arn", "SubnetGroupStatus='Complete'");
        m.list(AwsService.RDS, "DescribeDBParameterGroups", AwsType.RDS_DB_PARAMETER_GROUP, "DBParameterGroups", "DBParameterGroupName=id", "DBParameterGroupArn=arn", "DBParameterGroupFamily='postgres16'");
        m.list(AwsService.RDS, "DescribeOptionGroups", AwsType.RDS_OPTION_GROUP, "OptionGroupsList", "OptionGroupName=id", "OptionGroupArn=arn", "EngineName='mysql'", "MajorEngineVersion='8.0'");
        m.list(AwsService.RDS, "DescribeEventSubscriptions", AwsType.RDS_EVENT_SUBSCRIPTION, "EventSubscriptionsList", "CustSubscriptionId=id", "EventSubscriptionArn=arn", "Status='active'", "Enabled='true'");
        m.list(AwsService.RDS, "DescribeDBProxies", AwsType.RDS_DB_PROXY, "DBProxies", "DBProxyName=id", "DBProxyArn=arn", "Status='available'", "EngineFamily='POSTGRESQL'", "RequireTLS='true'", "CreatedDate=created");
        m.list(AwsService.DYNAMODB, "ListBackups", AwsType.DYNAMODB_BACKUP, "BackupSummaries", "BackupArn=id", "BackupName=name", "TableName=name", "BackupStatus='AVAILABLE'", "BackupType='USER'", "BackupCreationDateTime=created");
        m.children(AwsService.ECS, "ListServices", AwsType.ECS_SERVICE, "cluster", "serviceArns");
        m.detail(AwsService.ECS, "DescribeServices", AwsType.ECS_SERVICE, "services", "services[].serviceArn=arn", "services[].serviceName=name", "services[].status='ACTIVE'", "services[].launchType='FARGATE'", "services[].createdAt=created");
        m.list(AwsService.ECS, "ListTaskDefinitions", AwsType.ECS_TASK_DEFINITION, "taskDefinitionArns");
        m.detail(AwsService.ECS, "DescribeTaskDefinition", AwsType.ECS_TASK_DEFINITION, "taskDefinition", "taskDefinition.taskDefinitionArn=arn", "taskDefinition.family=name", "taskDefinition.revision='1'", "taskDefinition.networkMode='awsvpc'", "taskDefinition.status='ACTIVE'");
        m.children(AwsService.EKS, "ListNodegroups", AwsType.EKS_NODEGROUP, "clusterName", "nodegroups", "item=name");
        m.detail(AwsService.EKS, "DescribeNodegroup", AwsType.EKS_NODEGROUP, "nodegroupName", "nodegroup.nodegroupName=name", "nodegroup.nodegroupArn=arn", "nodegroup.status='ACTIVE'", "nodegroup.createdAt=created");
        m.list(AwsService.ELB, "DescribeLoadBalancers", AwsType.ELB_LOAD_BALANCER, "LoadBalancerDescriptions", "LoadBalancerName=id", "DNSName='{name}.elb.amazonaws.com'", "Scheme='internet-facing'", "CreatedTime=created", "VPCId=vpc");
        m.detail(AwsService.ELB, "DescribeLoadBalancerAttributes", AwsType.ELB_LOAD_BALANCER, "LoadBalancerName", "LoadBalancerAttributes.CrossZoneLoadBalancing.Enabled='true'", "LoadBalancerAttributes.AccessLog.Enabled='false'");
        m.children(AwsService.ELBV2, "DescribeListeners", AwsType.ELBV2_LISTENER, "LoadBalancerArn", "Listeners", "ListenerArn=id", "Port='443'", "Protocol='HTTPS'");
        m.list(AwsService.ELBV2, "DescribeTargetGroups", AwsType.ELBV2_TARGET_GROUP, "TargetGroups", "TargetGroupArn=id", "TargetGroupName=name", "Protocol='HTTP'", "Port='80'", "TargetType='instance'");
        m.children(AwsService.ROUTE53, "ListResourceRecordSets", AwsType.ROUTE53_RECORD_SET, "HostedZoneId", "ResourceRecordSets", "Name='{name}.example.com.'", "Type='CNAME'", "TTL='300'", "ResourceRecords[].Value='target.example.com'");
        m.list(AwsService.ROUTE53, "ListHealthChecks", AwsType.ROUTE53_HEALTH_CHECK, "HealthChecks", "Id=id", "CallerReference=name", "HealthCheckVersion='1'", "HealthCheckConfig.Type='HTTPS'", "HealthCheckConfig.FullyQualifiedDomainName='{name}.example.com'");
        m.list(AwsService.CONFIG, "DescribeConfigurationRecorders", AwsType.CONFIG_RECORDER, "ConfigurationRecorders", "name=id", "arn=arn", "roleARN='arn:aws:iam::{account}:role/config-role'", "recordingGroup.allSupported='true'");
        m.detail(AwsService.CONFIG, "DescribeConfigurationRecorderStatus", AwsType.CONFIG_RECORDER, "ConfigurationRecorderNames", "ConfigurationRecordersStatus[].name=name", "ConfigurationRecordersStatus[].recording='true'", "ConfigurationRecordersStatus[].lastStatus='SUCCESS'");
        m.list(AwsService.CONFIG, "DescribeConfigRules", AwsType.CONFIG_RULE, "ConfigRules", "ConfigRuleName=id", "ConfigRuleArn=arn", "ConfigRuleId='config-rule-sim'", "ConfigRuleState='ACTIVE'", "Source.Owner='AWS'", "Source.SourceIdentifier='S3_BUCKET_PUBLIC_READ_PROHIBITED'");
        m.list(AwsService.CONFIG, "DescribeDeliveryChannels", AwsType.CONFIG_DELIVERY_CHANNEL, "DeliveryChannels", "name=id", "s3BucketName='config-{account}'");
        m.list(AwsService.CONFIG, "DescribeConfigurationAggregators", AwsType.CONFIG_AGGREGATOR, "ConfigurationAggregators", "ConfigurationAggregatorName=id", "ConfigurationAggregatorArn=arn", "CreationTime=created");
        m.list(AwsService.GUARDDUTY, "ListDetectors", AwsType.GUARDDUTY_DETECTOR, "DetectorIds");
        m.detail(AwsService.GUARDDUTY, "GetDetector", AwsType.GUARDDUTY_DETECTOR, "DetectorId", "Status='ENABLED'", "ServiceRole='arn:aws:iam::{account}:role/aws-service-role/guardduty.amazonaws.com/AWSServiceRoleForAmazonGuardDuty'", "FindingPublishingFrequency='SIX_HOURS'");
        m.singleton(AwsService.SECURITYHUB, "DescribeHub", AwsType.SECURITYHUB_HUB, "InvalidAccessException", "HubArn='arn:aws:securityhub:{region}:{account}:hub/default'", "AutoEnableControls='true'", "SubscribedAt='2023-01-01T00:00:00.000Z'");
        m.list(AwsService.SECURITYHUB, "GetEnabledStandards", AwsType.SECURITYHUB_STANDARD, "StandardsSubscriptions", "StandardsSubscriptionArn=id", "StandardsArn='arn:aws:securityhub:{region}::standards/{name}/v/1.0.0'", "StandardsStatus='READY'");
        m.list(AwsService.ORGANIZATIONS, "ListPolicies", AwsType.ORGANIZATIONS_POLICY, "Policies", "Id=id", "Arn=arn", "Name=name", "Type='SERVICE_CONTROL_POLICY'", "AwsManaged='false'");
        m.list(AwsService.SNS, "ListSubscriptions", AwsType.SNS_SUBSCRIPTION, "Subscriptions", "SubscriptionArn=id", "Protocol='sqs'", "Owner=account", "Endpoint='arn:aws:sqs:{region}:{account}:{name}'");
        m.list(AwsService.SSM, "ListDocuments", AwsType.SSM_DOCUMENT, "DocumentIdentifiers", "Name=id", "Owner=account", "DocumentType='Command'", "DocumentFormat='JSON'", "CreatedDate=created");
        m.list(AwsService.SSM, "DescribeInstanceInformation", AwsType.SSM_MANAGED_INSTANCE, "InstanceInformationList", "InstanceId=id", "PingStatus='Online'", "PlatformType='Linux'", "AgentVersion='3.3.0'");
        m.list(AwsService.SSM, "DescribePatchBaselines", AwsType.SSM_PATCH_BASELINE, "BaselineIdentities", "BaselineId=id", "BaselineName=name", "OperatingSystem='AMAZON_LINUX_2'", "DefaultBaseline='false'");
        m.list(AwsService.CLOUDWATCH, "ListDashboards", AwsType.CLOUDWATCH_DASHBOARD, "DashboardEntries", "DashboardName=id", "DashboardArn=arn", "LastModified=created", "Size='1024'");
        m.list(AwsService.LOGS, "DescribeDestinations", AwsType.LOGS_DESTINATION, "destinations", "destinationName=id", "arn=arn", "targetArn='arn:aws:kinesis:{region}:{account}:stream/logs'", "creationTime=created");
        m.singleton(AwsService.ECR, "GetRegistryScanningConfiguration", AwsType.ECR_REGISTRY_SCANNING, "ResourceNotFoundException", "registryId=account", "scanningConfiguration.scanType='BASIC'");
        m.list(AwsService.EFS, "DescribeAccessPoints", AwsType.EFS_ACCESS_POINT, "AccessPoints", "AccessPointId=id", "AccessPointArn=arn", "Name=name", "LifeCycleState='available'", "Tags=tags");
        m.list(AwsService.ELASTICACHE, "DescribeReplicationGroups", AwsType.ELASTICACHE_REPLICATION_GROUP, "ReplicationGroups", "ReplicationGroupId=id", "ARN=arn", "Status='available'", "AtRestEncryptionEnabled='true'", "TransitEncryptionEnabled='true'");
        m.list(AwsService.ELASTICACHE, "DescribeCacheSubnetGroups", AwsType.ELASTICACHE_SUBNET_GROUP, "CacheSubnetGroups", "CacheSubnetGroupName=id", "ARN=arn", "CacheSubnetGroupDescription='cloud-sim'");
        m.list(AwsService.ELASTICACHE, "DescribeSnapshots", AwsType.ELASTICACHE_SNAPSHOT, "Snapshots", "SnapshotName=id", "ARN=arn", "SnapshotStatus='available'", "SnapshotSource='manual'");
        m.list(AwsService.REDSHIFT, "DescribeClusters", AwsType.REDSHIFT_CLUSTER, "Clusters", "ClusterIdentifier=id", "NodeType='ra3.xlplus'", "ClusterStatus='available'", "Encrypted='true'", "PubliclyAccessible='false'", "ClusterCreateTime=created", "ClusterNamespaceArn=arn");
        m.list(AwsService.REDSHIFT, "DescribeClusterSubnetGroups", AwsType.REDSHIFT_SUBNET_GROUP, "ClusterSubnetGroups", "ClusterSubnetGroupName=id", "SubnetGroupStatus='Complete'", "VpcId=vpc");
        m.list(AwsService.OPENSEARCH, "ListDomainNames", AwsType.OPENSEARCH_DOMAIN, "DomainNames", "DomainName=id", "EngineType='OpenSearch'");
        m.detail(AwsService.OPENSEARCH, "DescribeDomain", AwsType.OPENSEARCH_DOMAIN, "DomainName", "DomainStatus.DomainName=id", "DomainStatus.DomainId='{account}/{id}'", "DomainStatus.ARN=arn", "DomainStatus.EngineVersion='OpenSearch_2.11'", "DomainStatus.ClusterConfig.InstanceType='r6g.large.search'", "DomainStatus.EncryptionAtRestOptions.Enabled='true'", "DomainStatus.NodeToNodeEncryptionOptions.Enabled='true'");
        m.list(AwsService.KINESIS, "ListStreams", AwsType.KINESIS_STREAM, "StreamNames");
        m.detail(AwsService.KINESIS, "DescribeStreamSummary", AwsType.KINESIS_STREAM, "StreamName", "StreamDescriptionSummary.StreamName=id", "StreamDescriptionSummary.StreamARN=arn", "StreamDescriptionSummary.StreamStatus='ACTIVE'", "StreamDescriptionSummary.RetentionPeriodHours='24'", "StreamDescriptionSummary.StreamCreationTimestamp=created", "StreamDescriptionSummary.EncryptionType='KMS'", "StreamDescriptionSummary.OpenShardCount='1'");
        m.list(AwsService.FIREHOSE, "ListDeliveryStreams", AwsType.FIREHOSE_DELIVERY_STREAM, "DeliveryStreamNames");
        m.detail(AwsService.FIREHOSE, "DescribeDeliveryStream", AwsType.FIREHOSE_DELIVERY_STREAM, "DeliveryStreamName", "DeliveryStreamDescription.DeliveryStreamName=id", "DeliveryStreamDescription.DeliveryStreamARN=arn", "DeliveryStreamDescription.DeliveryStreamStatus='ACTIVE'", "DeliveryStreamDescription.DeliveryStreamType='DirectPut'", "DeliveryStreamDescription.VersionId='1'", "DeliveryStreamDescription.HasMoreDestinations='false'");
        m.list(AwsService.GLUE, "GetDatabases", AwsType.GLUE_DATABASE, "DatabaseList", "Name=id", "CreateTime=created", "CatalogId=account");
        m.list(AwsService.GLUE, "GetJobs", AwsType.GLUE_JOB, "Jobs", "Name=id", "Role='arn:aws:iam::{account}:role/glue'", "CreatedOn=created", "GlueVersion='4.0'");
        m.list(AwsService.GLUE, "GetCrawlers", AwsType.GLUE_CRAWLER, "Crawlers", "Name=id", "Role='glue'", "State='READY'", "CreationTime=created");
        m.list(AwsService.GLUE, "GetConnections", AwsType.GLUE_CONNECTION, "ConnectionList", "Name=id", "ConnectionType='JDBC'", "CreationTime=created");
        m.list(AwsService.GLUE, "GetTriggers", AwsType.GLUE_TRIGGER, "Triggers", "Name=id", "Type='SCHEDULED'", "State='ACTIVATED'", "Schedule='cron(0 12 * * ? *)'");
        m.list(AwsService.ATHENA, "ListWorkGroups", AwsType.ATHENA_WORKGROUP, "WorkGroups", "Name=id", "State='ENABLED'", "CreationTime=created", "EngineVersion.EffectiveEngineVersion='Athena engine version 3'");
        m.detail(AwsService.ATHENA, "GetWorkGroup", AwsType.ATHENA_WORKGROUP, "WorkGroup", "WorkGroup.Name=id", "WorkGroup.State='ENABLED'", "WorkGroup.Configuration.EnforceWorkGroupConfiguration='true'", "WorkGroup.Configuration.ResultConfiguration.EncryptionConfiguration.EncryptionOption='SSE_S3'");
        m.list(AwsService.ATHENA, "ListDataCatalogs", AwsType.ATHENA_DATA_CATALOG, "DataCatalogsSummary", "CatalogName=id", "Type='GLUE'", "Status='CREATE_COMPLETE'");
        m.children(AwsService.APIGATEWAY, "GetStages", AwsType.APIGATEWAY_STAGE, "restApiId", "item", "stageName=name", "deploymentId='dep123456'", "tracingEnabled='true'", "createdDate=created", "tags=tags");
        m.list(AwsService.APIGATEWAY, "GetDomainNames", AwsType.APIGATEWAY_DOMAIN_NAME, "items", "domainName=id", "securityPolicy='TLS_1_2'", "domainNameStatus='AVAILABLE'", "tags=tags");
        m.list(AwsService.APIGATEWAYV2, "GetApis", AwsType.APIGATEWAYV2_API, "Items", "ApiId=id", "Name=name", "ProtocolType='HTTP'", "ApiEndpoint='https://{id}.execute-api.{region}.amazonaws.com'", "CreatedDate=created", "Tags=tags");
        m.list(AwsService.APIGATEWAYV2, "GetDomainNames", AwsType.APIGATEWAYV2_DOMAIN_NAME, "Items", "DomainName=id", "ApiMappingSelectionExpression='$request.basepath'", "Tags=tags");
        m.list(AwsService.COGNITOIDP, "ListUserPools", AwsType.COGNITO_USER_POOL, "UserPools", "Id=id", "Name=name", "CreationDate=created", "Status='Enabled'");
        m.detail(AwsService.COGNITOIDP, "DescribeUserPool", AwsType.COGNITO_USER_POOL, "UserPoolId", "UserPool.Id=id", "UserPool.Name=name", "UserPool.Arn=arn", "UserPool.MfaConfiguration='OPTIONAL'", "UserPool.Policies.PasswordPolicy.MinimumLength='12'");
        m.list(AwsService.COGNITOIDENTITY, "ListIdentityPools", AwsType.COGNITO_IDENTITY_POOL, "IdentityPools", "IdentityPoolId=id", "IdentityPoolName=name");
        m.list(AwsService.STEPFUNCTIONS, "ListStateMachines", AwsType.SFN_STATE_MACHINE, "stateMachines", "stateMachineArn=id", "name=name", "type='STANDARD'", "creationDate=created");
        m.detail(AwsService.STEPFUNCTIONS, "DescribeStateMachine", AwsType.SFN_STATE_MACHINE, "stateMachineArn", "stateMachineArn=arn", "name=name", "status='ACTIVE'", "definition='{}'", "roleArn='arn:aws:iam::{account}:role/sfn'", "type='STANDARD'", "creationDate=created", "loggingConfiguration.level='ALL'");
        m.list(AwsService.STEPFUNCTIONS, "ListActivities", AwsType.SFN_ACTIVITY, "activities", "activityArn=id", "name=name", "creationDate=created");
        m.list(AwsService.EVENTS, "ListEventBuses", AwsType.EVENTS_EVENT_BUS, "EventBuses", "Name=id", "Arn=arn", "CreationTime=created");
        m.list(AwsService.EVENTS, "ListRules", AwsType.EVENTS_RULE, "Rules", "Arn=id", "Name=name", "State='ENABLED'", "EventBusName='default'", "ScheduleExpression='rate(1 hour)'");
        m.list(AwsService.BACKUP, "ListBackupVaults", AwsType.BACKUP_VAULT, "BackupVaultList", "BackupVaultName=id", "BackupVaultArn=arn", "CreationDate=created", "EncryptionKeyArn='arn:aws:kms:{region}:{account}:key/backup'", "NumberOfRecoveryPoints='0'");
        m.detail(AwsService.BACKUP, "GetBackupVaultAccessPolicy", AwsType.BACKUP_VAULT, "BackupVaultName", "BackupVaultName=id", "BackupVaultArn=arn", "Policy='{\"Version\":\"2012-10-17\",\"Statement\":[]}'");
        m.list(AwsService.BACKUP, "ListBackupPlans", AwsType.BACKUP_PLAN, "BackupPlansList", "BackupPlanId=id", "BackupPlanArn=arn", "BackupPlanName=name", "CreationDate=created", "VersionId='1'");
        m.list(AwsService.WAFV2, "ListWebACLs", AwsType.WAFV2_WEB_ACL, "WebACLs", "Id=id", "Name=name", "ARN=arn", "LockToken='0f8c5a4e-sim'");
        m.list(AwsService.WAFV2, "ListIPSets", AwsType.WAFV2_IP_SET, "IPSets", "Id=id", "Name=name", "ARN=arn", "LockToken='0f8c5a4e-sim'");
        m.list(AwsService.WAFV2, "ListRuleGroups", AwsType.WAFV2_RULE_GROUP, "RuleGroups", "Id=id", "Name=name", "ARN=arn", "LockToken='0f8c5a4e-sim'");
        m.list(AwsService.ACCESSANALYZER, "ListAnalyzers", AwsType.ACCESSANALYZER_ANALYZER, "analyzers", "arn=id", "name=name", "type='ACCOUNT'", "status='ACTIVE'", "createdAt=created");
        m.list(AwsService.AUTOSCALING, "DescribeLaunchConfigurations", AwsType.AUTOSCALING_LAUNCH_CONFIGURATION, "LaunchConfigurations", "LaunchConfigurationName=id", "LaunchConfigurationARN=arn", "ImageId='ami-0abcdef1234567890'", "InstanceType='t3.micro'", "CreatedTime=created");
        m.list(AwsService.SAGEMAKER, "ListNotebookInstances", AwsType.SAGEMAKER_NOTEBOOK_INSTANCE, "NotebookInstances", "NotebookInstanceName=id", "NotebookInstanceArn=arn", "NotebookInstanceStatus='InService'", "InstanceType='ml.t3.medium'", "CreationTime=created");
        m.list(AwsService.SAGEMAKER, "ListEndpoints", AwsType.SAGEMAKER_ENDPOINT, "Endpoints", "EndpointName=id", "EndpointArn=arn", "EndpointStatus='InService'", "CreationTime=created", "LastModifiedTime=created");
        m.list(AwsService.SAGEMAKER, "ListModels", AwsType.SAGEMAKER_MODEL, "Models", "ModelName=id", "ModelArn=arn", "CreationTime=created");
        m.list(AwsService.SAGEMAKER, "ListDomains", AwsType.SAGEMAKER_DOMAIN, "Domains", "DomainId=id", "DomainArn=arn", "DomainName=name", "Status='InService'", "CreationTime=created");
        m.list(AwsService.CODEBUILD, "ListProjects", AwsType.CODEBUILD_PROJECT, "projects");
        m.detail(AwsService.CODEBUILD, "BatchGetProjects", AwsType.CODEBUILD_PROJECT, "names", "projects[].name=id", "projects[].arn=arn", "projects[].serviceRole='arn:aws:iam::{account}:role/codebuild'", "projects[].environment.privilegedMode='false'", "projects[].environment.type='LINUX_CONTAINER'", "projects[].environment.image='aws/codebuild/standard:7.0'", "projects[].environment.computeType='BUILD_GENERAL1_SMALL'", "projects[].created=created");
        m.list(AwsService.CODEBUILD, "ListReportGroups", AwsType.CODEBUILD_REPORT_GROUP, "reportGroups");
        m.list(AwsService.KAFKA, "ListClustersV2", AwsType.MSK_CLUSTER, "ClusterInfoList", "ClusterArn=id", "ClusterName=name", "ClusterType='PROVISIONED'", "State='ACTIVE'", "CreationTime=created");
        m.list(AwsService.CLOUDFORMATION, "ListStackSets", AwsType.CLOUDFORMATION_STACK_SET, "Summaries", "StackSetId=id", "StackSetName=name", "Status='ACTIVE'", "PermissionModel='SERVICE_MANAGED'");
        m.list(AwsService.EMR, "ListClusters", AwsType.EMR_CLUSTER, "Clusters", "Id=id", "Name=name", "ClusterArn=arn", "Status.State='WAITING'", "NormalizedInstanceHours='0'");
        m.list(AwsService.CODEPIPELINE, "ListPipelines", AwsType.CODEPIPELINE_PIPELINE, "pipelines", "name=id", "version='1'", "pipelineType='V2'", "created=created", "updated=created");
        m.list(AwsService.TRANSFER, "ListServers", AwsType.TRANSFER_SERVER, "Servers", "ServerId=id", "Arn=arn", "State='ONLINE'", "EndpointType='PUBLIC'", "IdentityProviderType='SERVICE_MANAGED'");
        m.list(AwsService.MQ, "ListBrokers", AwsType.MQ_BROKER, "BrokerSummaries", "BrokerId=id", "BrokerArn=arn", "BrokerName=name", "BrokerState='RUNNING'", "DeploymentMode='SINGLE_INSTANCE'", "EngineType='ACTIVEMQ'", "Created=created");
        m.list(AwsService.FSX, "DescribeFileSystems", AwsType.FSX_FILE_SYSTEM, "FileSystems", "FileSystemId=id", "ResourceARN=arn", "FileSystemType='LUSTRE'", "Lifecycle='AVAILABLE'", "StorageCapacity='1200'", "CreationTime=created", "Tags=tags");
        m.list(AwsService.BATCH, "DescribeComputeEnvironments", AwsType.BATCH_COMPUTE_ENVIRONMENT, "computeEnvironments", "computeEnvironmentArn=id", "computeEnvironmentName=name", "state='ENABLED'", "status='VALID'", "type='MANAGED'", "tags=tags");
        m.list(AwsService.BATCH, "DescribeJobQueues", AwsType.BATCH_JOB_QUEUE, "jobQueues", "jobQueueArn=id", "jobQueueName=name", "state='ENABLED'", "status='VALID'", "priority='1'", "tags=tags");
        m.list(AwsService.APPSYNC, "ListGraphqlApis", AwsType.APPSYNC_GRAPHQL_API, "graphqlApis", "apiId=id", "name=name", "arn=arn", "authenticationType='AWS_IAM'", "tags=tags");
        m.list(AwsService.NETWORKFIREWALL, "ListFirewalls", AwsType.NETWORKFIREWALL_FIREWALL, "Firewalls", "FirewallArn=id", "FirewallName=name");
        m.list(AwsService.CLOUDTRAIL, "ListEventDataStores", AwsType.CLOUDTRAIL_EVENT_DATA_STORE, "EventDataStores", "EventDataStoreArn=id", "Name=name");
        m.detail(AwsService.IAM, "ListAccessKeys", AwsType.IAM_USER, "UserName", "AccessKeyMetadata[].UserName=id", "AccessKeyMetadata[].AccessKeyId='AKIASIMULATEDKEY0001'", "AccessKeyMetadata[].Status='Active'", "AccessKeyMetadata[].CreateDate=created");
        m.detail(AwsService.IAM, "ListUserPolicies", AwsType.IAM_USER, "UserName", "PolicyNames='inline-{name}'");
        m.detail(AwsService.IAM, "ListAttachedUserPolicies", AwsType.IAM_USER, "UserName", "AttachedPolicies[].PolicyName='ReadOnlyAccess'", "AttachedPolicies[].PolicyArn='arn:aws:iam::aws:policy/ReadOnlyAccess'");
        m.detail(AwsService.IAM, "ListRolePolicies", AwsType.IAM_ROLE, "RoleName", "PolicyNames='inline-{name}'");
        m.detail(AwsService.IAM, "ListAttachedRolePolicies", AwsType.IAM_ROLE, "RoleName", "AttachedPolicies[].PolicyName='ReadOnlyAccess'", "AttachedPolicies[].PolicyArn='arn:aws:iam::aws:policy/ReadOnlyAccess'");
        m.detail(AwsService.IAM, "ListGroupPolicies", AwsType.IAM_GROUP, "GroupName", "PolicyNames='inline-{name}'");
        m.detail(AwsService.IAM, "ListAttachedGroupPolicies", AwsType.IAM_GROUP, "GroupName", "AttachedPolicies[].PolicyName='ReadOnlyAccess'", "AttachedPolicies[].PolicyArn='arn:aws:iam::aws:policy/ReadOnlyAccess'");
        m.detail(AwsService.IAM, "GetPolicyVersion", AwsType.IAM_POLICY, "PolicyArn", "PolicyVersion.VersionId='v1'", "PolicyVersion.IsDefaultVersion='true'", "PolicyVersion.Document='%7B%22Version%22%3A%222012-10-17%22%2C%22Statement%22%3A%5B%5D%7D'", "PolicyVersion.CreateDate=created");
        m.detail(AwsService.S3, "GetBucketPolicy", AwsType.S3_BUCKET, "Bucket", "Policy='{\"Version\":\"2012-10-17\",\"Statement\":[]}'");
        m.detail(AwsService.S3, "GetBucketEncryption", AwsType.S3_BUCKET, "Bucket", "ServerSideEncryptionConfiguration.Rules[].ApplyServerSideEncryptionByDefault.SSEAlgorithm='AES256'", "ServerSideEncryptionConfiguration.Rules[].BucketKeyEnabled='true'");
        m.detail(AwsService.S3, "GetBucketVersioning", AwsType.S3_BUCKET, "Bucket", "Status='Enabled'");
        m.detail(AwsService.S3, "GetBucketLogging", AwsType.S3_BUCKET, "Bucket", "LoggingEnabled.TargetBucket='logs-{account}'", "LoggingEnabled.TargetPrefix='{id}/'");
        m.detail(AwsService.LAMBDA, "GetPolicy", AwsType.LAMBDA_FUNCTION, "FunctionName", "Policy='{\"Version\":\"2012-10-17\",\"Statement\":[]}'", "RevisionId='1'");
        m.detail(AwsService.DYNAMODB, "DescribeTable", AwsType.DYNAMODB_TABLE, "TableName", "Table.TableName=id", "Table.TableArn=arn", "Table.TableStatus='ACTIVE'", "Table.CreationDateTime=created", "Table.SSEDescription.Status='ENABLED'");
        m.detail(AwsService.DYNAMODB, "DescribeContinuousBackups", AwsType.DYNAMODB_TABLE, "TableName", "ContinuousBackupsDescription.ContinuousBackupsStatus='ENABLED'", "ContinuousBackupsDescription.PointInTimeRecoveryDescription.PointInTimeRecoveryStatus='ENABLED'");
        m.detail(AwsService.SNS, "GetTopicAttributes", AwsType.SNS_TOPIC, "TopicArn", "Attributes.TopicArn=arn", "Attributes.Owner=account", "Attributes.KmsMasterKeyId='alias/aws/sns'");
        m.detail(AwsService.SQS, "GetQueueAttributes", AwsType.SQS_QUEUE, "QueueUrl", "Attributes.QueueArn=arn", "Attributes.SqsManagedSseEnabled='true'", "Attributes.VisibilityTimeout='30'");
        m.detail(AwsService.KMS, "DescribeKey", AwsType.KMS_KEY, "KeyId", "KeyMetadata.KeyId=id", "KeyMetadata.Arn=arn", "KeyMetadata.AWSAccountId=account", "KeyMetadata.KeyState='Enabled'", "KeyMetadata.KeyManager='CUSTOMER'", "KeyMetadata.KeyUsage='ENCRYPT_DECRYPT'", "KeyMetadata.CreationDate=created");
        m.detail(AwsService.KMS, "GetKeyRotationStatus", AwsType.KMS_KEY, "KeyId", "KeyRotationEnabled='true'", "KeyId=id");
        m.detail(AwsService.KMS, "GetKeyPolicy", AwsType.KMS_KEY, "KeyId", "Policy='{\"Version\":\"2012-10-17\",\"Statement\":[]}'", "PolicyName='default'");
        m.detail(AwsService.ECS, "DescribeClusters", AwsType.ECS_CLUSTER, "clusters", "clusters[].clusterArn=arn", "clusters[].clusterName=name", "clusters[].status='ACTIVE'");
        m.detail(AwsService.EKS, "DescribeCluster", AwsType.EKS_CLUSTER, "name", "cluster.name=id", "cluster.arn=arn", "cluster.status='ACTIVE'", "cluster.version='1.30'", "cluster.createdAt=created", "cluster.resourcesVpcConfig.endpointPublicAccess='false'");
        m.detail(AwsService.LOGS, "DescribeMetricFilters", AwsType.LOGS_LOG_GROUP, "logGroupName", "metricFilters[].filterName='{name}-errors'", "metricFilters[].logGroupName=id", "metricFilters[].filterPattern='ERROR'", "metricFilters[].creationTime=created");
        m.detail(AwsService.SECRETSMANAGER, "GetResourcePolicy", AwsType.SECRETSMANAGER_SECRET, "SecretId", "ARN=arn", "Name=name", "ResourcePolicy='{\"Version\":\"2012-10-17\",\"Statement\":[]}'");
        m.detail(AwsService.CLOUDTRAIL, "GetTrailStatus", AwsType.CLOUDTRAIL_TRAIL, "Name", "IsLogging='true'", "LatestDeliveryTime=created");
        m.detail(AwsService.CLOUDTRAIL, "GetEventSelectors", AwsType.CLOUDTRAIL_TRAIL, "TrailName", "TrailARN=arn", "EventSelectors[].ReadWriteType='All'", "EventSelectors[].IncludeManagementEvents='true'");
        m.detail(AwsService.ELBV2, "DescribeLoadBalancerAttributes", AwsType.ELBV2_LOAD_BALANCER, "LoadBalancerArn", "Attributes[].Key='deletion_protection.enabled'", "Attributes[].Value='false'");
        m.detail(AwsService.ECR, "GetRepositoryPolicy", AwsType.ECR_REPOSITORY, "repositoryName", "registryId=account", "repositoryName=id", "policyText='{\"Version\":\"2012-10-17\",\"Statement\":[]}'");
        m.detail(AwsService.ECR, "GetLifecyclePolicy", AwsType.ECR_REPOSITORY, "repositoryName", "registryId=account", "repositoryName=id", "lifecyclePolicyText='{\"rules\":[]}'");
        m.detail(AwsService.EFS, "DescribeFileSystemPolicy", AwsType.EFS_FILE_SYSTEM, "FileSystemId", "FileSystemId=id", "Policy='{\"Version\":\"2012-10-17\",\"Statement\":[]}'");
        m.detail(AwsService.ACM, "DescribeCertificate", AwsType.ACM_CERTIFICATE, "CertificateArn", "Certificate.CertificateArn=arn", "Certificate.DomainName='{name}.example.com'", "Certificate.Status='ISSUED'", "Certificate.Type='AMAZON_ISSUED'", "Certificate.KeyAlgorithm='RSA_2048'");
    }
}
