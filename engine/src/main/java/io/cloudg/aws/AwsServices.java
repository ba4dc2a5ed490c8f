package io.cloudg.aws;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.core.SdkClient;

/**
 * The AWS services cloudg calls, one line each: the service key the governor paces it by and the coverage
 * and truth name it ({@code ec2}, {@code iam}, {@code elbv2}...; botocore's service names, without hyphens),
 * the SDK client interface, whether the service is global (one endpoint and one quota per account, paced in
 * the scope region {@code global}), and the IAM action prefix its calls need ({@code elasticloadbalancing},
 * {@code states}...). An IAM action is the prefix and the operation's name, except where AWS named it
 * otherwise ({@link #permission}). Adding a service is one line here and its SDK module in the POM.
 */
public final class AwsServices {
    /** One service. */
    public record Service(String key, Class<? extends SdkClient> client, boolean global, String iamPrefix) {
        /** The IAM action an operation of this service needs. */
        public String permission(String operation) {
            String special = IAM_ACTIONS.get(key + ":" + operation);
            if (special != null) {
                return special;
            }
            if (key.equals("apigateway") || key.equals("apigatewayv2")) {
                return "apigateway:GET"; // API Gateway authorizes by HTTP verb on the resource path
            }
            return iamPrefix + ":" + operation;
        }
    }

    /** Operations whose IAM action is not {@code prefix:Operation}. */
    private static final Map<String, String> IAM_ACTIONS = Map.of(
            "s3:ListBuckets", "s3:ListAllMyBuckets",
            "s3:GetPublicAccessBlock", "s3:GetBucketPublicAccessBlock",
            "s3:GetBucketEncryption", "s3:GetEncryptionConfiguration",
            "s3:GetBucketLifecycleConfiguration", "s3:GetLifecycleConfiguration");

    private static final List<Service> ALL = List.of(
            svc("ec2", software.amazon.awssdk.services.ec2.Ec2Client.class, false, "ec2"),
            svc("sts", software.amazon.awssdk.services.sts.StsClient.class, false, "sts"),
            svc("organizations", software.amazon.awssdk.services.organizations.OrganizationsClient.class, true, "organizations"),
            svc("iam", software.amazon.awssdk.services.iam.IamClient.class, true, "iam"),
            svc("s3", software.amazon.awssdk.services.s3.S3Client.class, true, "s3"),
            svc("lambda", software.amazon.awssdk.services.lambda.LambdaClient.class, false, "lambda"),
            svc("rds", software.amazon.awssdk.services.rds.RdsClient.class, false, "rds"),
            svc("dynamodb", software.amazon.awssdk.services.dynamodb.DynamoDbClient.class, false, "dynamodb"),
            svc("sns", software.amazon.awssdk.services.sns.SnsClient.class, false, "sns"),
            svc("sqs", software.amazon.awssdk.services.sqs.SqsClient.class, false, "sqs"),
            svc("kms", software.amazon.awssdk.services.kms.KmsClient.class, false, "kms"),
            svc("ecs", software.amazon.awssdk.services.ecs.EcsClient.class, false, "ecs"),
            svc("eks", software.amazon.awssdk.services.eks.EksClient.class, false, "eks"),
            svc("cloudwatch", software.amazon.awssdk.services.cloudwatch.CloudWatchClient.class, false, "cloudwatch"),
            svc("logs", software.amazon.awssdk.services.cloudwatchlogs.CloudWatchLogsClient.class, false, "logs"),
            svc("route53", software.amazon.awssdk.services.route53.Route53Client.class, true, "route53"),
            svc("cloudformation", software.amazon.awssdk.services.cloudformation.CloudFormationClient.class, false, "cloudformation"),
            svc("ssm", software.amazon.awssdk.services.ssm.SsmClient.class, false, "ssm"),
            svc("secretsmanager", software.amazon.awssdk.services.secretsmanager.SecretsManagerClient.class, false, "secretsmanager"),
            svc("cloudtrail", software.amazon.awssdk.services.cloudtrail.CloudTrailClient.class, false, "cloudtrail"),
            svc("elbv2", software.amazon.awssdk.services.elasticloadbalancingv2.ElasticLoadBalancingV2Client.class, false, "elasticloadbalancing"),
            svc("elb", software.amazon.awssdk.services.elasticloadbalancing.ElasticLoadBalancingClient.class, false, "elasticloadbalancing"),
            svc("autoscaling", software.amazon.awssdk.services.autoscaling.AutoScalingClient.class, false, "autoscaling"),
            svc("ecr", software.amazon.awssdk.services.ecr.EcrClient.class, false, "ecr"),
            svc("apigateway", software.amazon.awssdk.services.apigateway.ApiGatewayClient.class, false, "apigateway"),
            svc("apigatewayv2", software.amazon.awssdk.services.apigatewayv2.ApiGatewayV2Client.class, false, "apigateway"),
            svc("cloudfront", software.amazon.awssdk.services.cloudfront.CloudFrontClient.class, true, "cloudfront"),
            svc("efs", software.amazon.awssdk.services.efs.EfsClient.class, false, "elasticfilesystem"),
            svc("elasticache", software.amazon.awssdk.services.elasticache.ElastiCacheClient.class, false, "elasticache"),
            svc("acm", software.amazon.awssdk.services.acm.AcmClient.class, false, "acm"),
            svc("config", software.amazon.awssdk.services.config.ConfigClient.class, false, "config"),
            svc("guardduty", software.amazon.awssdk.services.guardduty.GuardDutyClient.class, false, "guardduty"),
            svc("securityhub", software.amazon.awssdk.services.securityhub.SecurityHubClient.class, false, "securityhub"),
            svc("redshift", software.amazon.awssdk.services.redshift.RedshiftClient.class, false, "redshift"),
            svc("opensearch", software.amazon.awssdk.services.opensearch.OpenSearchClient.class, false, "es"),
            svc("kinesis", software.amazon.awssdk.services.kinesis.KinesisClient.class, false, "kinesis"),
            svc("firehose", software.amazon.awssdk.services.firehose.FirehoseClient.class, false, "firehose"),
            svc("glue", software.amazon.awssdk.services.glue.GlueClient.class, false, "glue"),
            svc("athena", software.amazon.awssdk.services.athena.AthenaClient.class, false, "athena"),
            svc("cognitoidp", software.amazon.awssdk.services.cognitoidentityprovider.CognitoIdentityProviderClient.class, false, "cognito-idp"),
            svc("cognitoidentity", software.amazon.awssdk.services.cognitoidentity.CognitoIdentityClient.class, false, "cognito-identity"),
            svc("stepfunctions", software.amazon.awssdk.services.sfn.SfnClient.class, false, "states"),
            svc("events", software.amazon.awssdk.services.eventbridge.EventBridgeClient.class, false, "events"),
            svc("backup", software.amazon.awssdk.services.backup.BackupClient.class, false, "backup"),
            svc("wafv2", software.amazon.awssdk.services.wafv2.Wafv2Client.class, false, "wafv2"),
            svc("accessanalyzer", software.amazon.awssdk.services.accessanalyzer.AccessAnalyzerClient.class, false, "access-analyzer"),
            svc("sagemaker", software.amazon.awssdk.services.sagemaker.SageMakerClient.class, false, "sagemaker"),
            svc("codebuild", software.amazon.awssdk.services.codebuild.CodeBuildClient.class, false, "codebuild"),
            svc("kafka", software.amazon.awssdk.services.kafka.KafkaClient.class, false, "kafka"),
            svc("emr", software.amazon.awssdk.services.emr.EmrClient.class, false, "elasticmapreduce"),
            svc("codepipeline", software.amazon.awssdk.services.codepipeline.CodePipelineClient.class, false, "codepipeline"),
            svc("transfer", software.amazon.awssdk.services.transfer.TransferClient.class, false, "transfer"),
            svc("mq", software.amazon.awssdk.services.mq.MqClient.class, false, "mq"),
            svc("fsx", software.amazon.awssdk.services.fsx.FSxClient.class, false, "fsx"),
            svc("batch", software.amazon.awssdk.services.batch.BatchClient.class, false, "batch"),
            svc("appsync", software.amazon.awssdk.services.appsync.AppSyncClient.class, false, "appsync"),
            svc("networkfirewall", software.amazon.awssdk.services.networkfirewall.NetworkFirewallClient.class, false, "network-firewall"),
            svc("cloudcontrol", software.amazon.awssdk.services.cloudcontrol.CloudControlClient.class, false, "cloudformation"),
            svc("resourcegroupstaggingapi", software.amazon.awssdk.services.resourcegroupstaggingapi.ResourceGroupsTaggingApiClient.class, false, "tag"));

    private static final Map<String, Service> BY_KEY = new LinkedHashMap<>();
    private static final Map<Class<?>, Service> BY_CLIENT = new LinkedHashMap<>();

    static {
        for (Service s : ALL) {
            BY_KEY.put(s.key(), s);
            BY_CLIENT.put(s.client(), s);
        }
    }

    private AwsServices() {
    }

    private static Service svc(String key, Class<? extends SdkClient> client, boolean global, String iamPrefix) {
        return new Service(key, client, global, iamPrefix);
    }

    public static Service of(Class<?> clientType) {
        Service s = BY_CLIENT.get(clientType);
        if (s == null) {
            throw new IllegalArgumentException("no service entry for " + clientType.getName() + " in AwsServices");
        }
        return s;
    }

    /** The service with key {@code key}. */
    public static Service byKey(String key) {
        Service s = BY_KEY.get(key);
        if (s == null) {
            throw new IllegalArgumentException("no AWS service " + key + " (known: " + String.join(", ", BY_KEY.keySet()) + ")");
        }
        return s;
    }

    /** The client interface of service {@code key}. */
    public static Class<? extends SdkClient> client(String key) {
        return byKey(key).client();
    }

    /** Every service, in table order. */
    public static List<Service> all() {
        return ALL;
    }
}
