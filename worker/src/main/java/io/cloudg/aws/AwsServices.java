package io.cloudg.aws;

import java.util.Map;
import software.amazon.awssdk.services.acm.AcmClient;
import software.amazon.awssdk.services.apigateway.ApiGatewayClient;
import software.amazon.awssdk.services.autoscaling.AutoScalingClient;
import software.amazon.awssdk.services.cloudcontrol.CloudControlClient;
import software.amazon.awssdk.services.cloudformation.CloudFormationClient;
import software.amazon.awssdk.services.cloudfront.CloudFrontClient;
import software.amazon.awssdk.services.cloudtrail.CloudTrailClient;
import software.amazon.awssdk.services.cloudwatch.CloudWatchClient;
import software.amazon.awssdk.services.cloudwatchlogs.CloudWatchLogsClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ecr.EcrClient;
import software.amazon.awssdk.services.ecs.EcsClient;
import software.amazon.awssdk.services.efs.EfsClient;
import software.amazon.awssdk.services.eks.EksClient;
import software.amazon.awssdk.services.elasticache.ElastiCacheClient;
import software.amazon.awssdk.services.elasticloadbalancingv2.ElasticLoadBalancingV2Client;
import software.amazon.awssdk.services.iam.IamClient;
import software.amazon.awssdk.services.kms.KmsClient;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.organizations.OrganizationsClient;
import software.amazon.awssdk.services.rds.RdsClient;
import software.amazon.awssdk.services.resourcegroupstaggingapi.ResourceGroupsTaggingApiClient;
import software.amazon.awssdk.services.route53.Route53Client;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.ssm.SsmClient;
import software.amazon.awssdk.services.sts.StsClient;

/**
 * The AWS services cloudg calls: for each SDK client type, the service key the governor paces it by (the
 * keys of the rate table: {@code ec2}, {@code iam}, {@code resourcegroupstaggingapi}...) and whether the
 * service is global (one endpoint and one quota per account, paced in the scope region {@code global}).
 * Adding a service is one line here.
 */
public final class AwsServices {
    /** One service. */
    public record Service(String key, boolean global) {
    }

    private static final Map<Class<?>, Service> SERVICES = Map.ofEntries(
            Map.entry(Ec2Client.class, new Service("ec2", false)),
            Map.entry(StsClient.class, new Service("sts", false)),
            Map.entry(OrganizationsClient.class, new Service("organizations", true)),
            Map.entry(IamClient.class, new Service("iam", true)),
            Map.entry(S3Client.class, new Service("s3", true)),
            Map.entry(LambdaClient.class, new Service("lambda", false)),
            Map.entry(RdsClient.class, new Service("rds", false)),
            Map.entry(DynamoDbClient.class, new Service("dynamodb", false)),
            Map.entry(SnsClient.class, new Service("sns", false)),
            Map.entry(SqsClient.class, new Service("sqs", false)),
            Map.entry(KmsClient.class, new Service("kms", false)),
            Map.entry(EcsClient.class, new Service("ecs", false)),
            Map.entry(EksClient.class, new Service("eks", false)),
            Map.entry(CloudWatchClient.class, new Service("cloudwatch", false)),
            Map.entry(CloudWatchLogsClient.class, new Service("logs", false)),
            Map.entry(Route53Client.class, new Service("route53", true)),
            Map.entry(CloudFormationClient.class, new Service("cloudformation", false)),
            Map.entry(SsmClient.class, new Service("ssm", false)),
            Map.entry(SecretsManagerClient.class, new Service("secretsmanager", false)),
            Map.entry(CloudTrailClient.class, new Service("cloudtrail", false)),
            Map.entry(ElasticLoadBalancingV2Client.class, new Service("elbv2", false)),
            Map.entry(AutoScalingClient.class, new Service("autoscaling", false)),
            Map.entry(EcrClient.class, new Service("ecr", false)),
            Map.entry(ApiGatewayClient.class, new Service("apigateway", false)),
            Map.entry(CloudFrontClient.class, new Service("cloudfront", true)),
            Map.entry(EfsClient.class, new Service("efs", false)),
            Map.entry(ElastiCacheClient.class, new Service("elasticache", false)),
            Map.entry(AcmClient.class, new Service("acm", false)),
            Map.entry(CloudControlClient.class, new Service("cloudcontrol", false)),
            Map.entry(ResourceGroupsTaggingApiClient.class, new Service("resourcegroupstaggingapi", false)));

    private AwsServices() {
    }

    public static Service of(Class<?> clientType) {
        Service s = SERVICES.get(clientType);
        if (s == null) {
            throw new IllegalArgumentException("no service entry for " + clientType.getName() + " in AwsServices");
        }
        return s;
    }
}
