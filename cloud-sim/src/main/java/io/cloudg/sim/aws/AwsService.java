package io.cloudg.sim.aws;

import static io.cloudg.sim.aws.AwsProtocol.AWS_JSON_1_0;
import static io.cloudg.sim.aws.AwsProtocol.AWS_JSON_1_1;
import static io.cloudg.sim.aws.AwsProtocol.AWS_QUERY;
import static io.cloudg.sim.aws.AwsProtocol.EC2_QUERY;
import static io.cloudg.sim.aws.AwsProtocol.REST_JSON;
import static io.cloudg.sim.aws.AwsProtocol.REST_XML;

import java.util.HashMap;
import java.util.Map;

/**
 * The AWS services the simulator serves, with everything their wire needs: the SigV4 signing name (how
 * a request says which service it is for), the protocol the 2.40.2 client speaks, the JSON target prefix
 * or query API version, the XML namespace, and the throttling error code and HTTP status each service
 * really answers with (all codes are in the SDK's throttling list, so {@code isThrottlingException()} is
 * true for them).
 */
public enum AwsService {
    EC2("ec2", "ec2", EC2_QUERY, null, "2016-11-15", "http://ec2.amazonaws.com/doc/2016-11-15/",
        "RequestLimitExceeded", 503, false),
    STS("sts", "sts", AWS_QUERY, null, "2011-06-15", "https://sts.amazonaws.com/doc/2011-06-15/", "Throttling", 400, false),
    IAM("iam", "iam", AWS_QUERY, null, "2010-05-08", "https://iam.amazonaws.com/doc/2010-05-08/", "Throttling", 400, true),
    ORGANIZATIONS("organizations", "organizations", AWS_JSON_1_1, "AWSOrganizationsV20161128", null, null,
        "TooManyRequestsException", 400, true),
    S3("s3", "s3", REST_XML, null, null, "http://s3.amazonaws.com/doc/2006-03-01/", "SlowDown", 503, false),
    LAMBDA("lambda", "lambda", REST_JSON, null, null, null, "TooManyRequestsException", 429, false),
    CLOUDCONTROL("cloudcontrol", "cloudcontrolapi", AWS_JSON_1_0, "CloudApiService", null, null, "ThrottlingException",
        400, false),
    TAGGING("resourcegroupstaggingapi", "tagging", AWS_JSON_1_1, "ResourceGroupsTaggingAPI_20170126", null, null,
        "ThrottledException", 400, false),
    RDS("rds", "rds", AWS_QUERY, null, "2014-10-31", "http://rds.amazonaws.com/doc/2014-10-31/", "Throttling", 400, false),
    DYNAMODB("dynamodb", "dynamodb", AWS_JSON_1_0, "DynamoDB_20120810", null, null, "ThrottlingException", 400, false),
    SNS("sns", "sns", AWS_QUERY, null, "2010-03-31", "http://sns.amazonaws.com/doc/2010-03-31/", "Throttling", 400, false),
    SQS("sqs", "sqs", AWS_JSON_1_0, "AmazonSQS", null, null, "RequestThrottled", 400, false),
    KMS("kms", "kms", AWS_JSON_1_1, "TrentService", null, null, "ThrottlingException", 400, false),
    ECS("ecs", "ecs", AWS_JSON_1_1, "AmazonEC2ContainerServiceV20141113", null, null, "ThrottlingException", 400, false),
    EKS("eks", "eks", REST_JSON, null, null, null, "ThrottlingException", 429, false),
    CLOUDWATCH("cloudwatch", "monitoring", AWS_QUERY, null, "2010-08-01", "http://monitoring.amazonaws.com/doc/2010-08-01/",
        "Throttling", 400, false),
    LOGS("logs", "logs", AWS_JSON_1_1, "Logs_20140328", null, null, "ThrottlingException", 400, false),
    ROUTE53("route53", "route53", REST_XML, null, null, "https://route53.amazonaws.com/doc/2013-04-01/", "Throttling",
        400, true),
    CLOUDFORMATION("cloudformation", "cloudformation", AWS_QUERY, null, "2010-05-15",
        "http://cloudformation.amazonaws.com/doc/2010-05-15/", "Throttling", 400, false),
    SSM("ssm", "ssm", AWS_JSON_1_1, "AmazonSSM", null, null, "ThrottlingException", 400, false),
    SECRETSMANAGER("secretsmanager", "secretsmanager", AWS_JSON_1_1, "secretsmanager", null, null, "ThrottlingException",
        400, false),
    CLOUDTRAIL("cloudtrail", "cloudtrail", AWS_JSON_1_1, "com.amazonaws.cloudtrail.v20131101.CloudTrail_20131101", null,
        null, "ThrottlingException", 400, false),
    ELBV2("elbv2", "elasticloadbalancing", AWS_QUERY, null, "2015-12-01",
        "http://elasticloadbalancing.amazonaws.com/doc/2015-12-01/", "Throttling", 400, false),
    AUTOSCALING("autoscaling", "autoscaling", AWS_QUERY, null, "2011-01-01",
        "http://autoscaling.amazonaws.com/doc/2011-01-01/", "Throttling", 400, false),
    ECR("ecr", "ecr", AWS_JSON_1_1, "AmazonEC2ContainerRegistry_V20150921", null, null, "ThrottlingException", 400, false),
    APIGATEWAY("apigateway", "apigateway", REST_JSON, null, null, null, "TooManyRequestsException", 429, false),
    CLOUDFRONT("cloudfront", "cloudfront", REST_XML, null, null, "http://cloudfront.amazonaws.com/doc/2020-05-31/",
        "Throttling", 400, true),
    EFS("efs", "elasticfilesystem", REST_JSON, null, null, null, "ThrottlingException", 429, false),
    ELASTICACHE("elasticache", "elasticache", AWS_QUERY, null, "2015-02-02",
        "http://elasticache.amazonaws.com/doc/2015-02-02/", "Throttling", 400, false),
    ACM("acm", "acm", AWS_JSON_1_1, "CertificateManager", null, null, "ThrottlingException", 400, false);

    private static final Map<String, AwsService> BY_SIGNING = new HashMap<>();
    private static final Map<String, AwsService> BY_TARGET = new HashMap<>();
    private static final Map<String, AwsService> BY_VERSION = new HashMap<>();

    static {
        for (AwsService s : values()) {
            BY_SIGNING.put(s.signingName, s);
            if (s.targetPrefix != null) {
                BY_TARGET.put(s.targetPrefix, s);
            }
            if (s.queryVersion != null) {
                BY_VERSION.put(s.queryVersion, s);
            }
        }
    }

    private final String id;
    private final String signingName;
    private final AwsProtocol protocol;
    private final String targetPrefix;
    private final String queryVersion;
    private final String xmlNamespace;
    private final String throttleCode;
    private final int throttleStatus;
    private final boolean global;

    AwsService(String id, String signingName, AwsProtocol protocol, String targetPrefix, String queryVersion,
               String xmlNamespace, String throttleCode, int throttleStatus, boolean global) {
        this.id = id;
        this.signingName = signingName;
        this.protocol = protocol;
        this.targetPrefix = targetPrefix;
        this.queryVersion = queryVersion;
        this.xmlNamespace = xmlNamespace;
        this.throttleCode = throttleCode;
        this.throttleStatus = throttleStatus;
        this.global = global;
    }

    /** botocore service name, used in quota keys, fault matches and the truth. */
    public String id() {
        return id;
    }

    public String signingName() {
        return signingName;
    }

    public AwsProtocol protocol() {
        return protocol;
    }

    public String targetPrefix() {
        return targetPrefix;
    }

    public String xmlNamespace() {
        return xmlNamespace;
    }

    public String throttleCode() {
        return throttleCode;
    }

    public int throttleStatus() {
        return throttleStatus;
    }

    /**
     * Whether the service's throttling error carries {@code Retry-After}: only where the service model binds a
     * member to that header (Lambda's and API Gateway's {@code TooManyRequestsException.retryAfterSeconds}).
     * Strict realism sends the header for these services only.
     */
    public boolean sendsRetryAfter() {
        return this == LAMBDA || this == APIGATEWAY;
    }

    /** Global services are charged and listed in region {@code global}. */
    public boolean global() {
        return global;
    }

    public static AwsService bySigningName(String name) {
        return BY_SIGNING.get(name);
    }

    public static AwsService byTargetPrefix(String prefix) {
        return BY_TARGET.get(prefix);
    }

    /** The query service an unsigned request means, from its {@code Version} parameter. */
    public static AwsService byQueryVersion(String version) {
        return version == null ? null : BY_VERSION.get(version);
    }
}
