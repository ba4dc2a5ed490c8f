package io.cloudg.sim.estate;

import io.cloudg.sim.config.AwsSpec;
import io.cloudg.sim.core.AwsType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * Generates the AWS estate one shard at a time: an account x region (regional types, subnets wired to VPCs,
 * instances to subnets) or an account's global part (the organization access role, IAM, S3, Route 53,
 * CloudFront). Every id comes from {@link Ids} salted with the type, account, region and index, so a shard
 * is the same whenever and however often it is generated; then each resource gets its ordinal (its place
 * in its listing) and its lifetime ({@link Churn}: deleted while a map runs, or a sibling created next to it).
 */
final class AwsGenerator {
    private static final Instant EPOCH = Instant.parse("2023-01-01T00:00:00Z");
    /** Ordinal spacing: a created sibling slots in right after the resource it was created next to. */
    static final long SPACING = 1024;

    private final AwsSpec spec;
    private final Ids ids;
    private final Churn churn;
    private final Generations generations;

    AwsGenerator(AwsSpec spec, Ids ids, Churn churn, Generations generations) {
        this.spec = spec;
        this.ids = ids;
        this.churn = churn;
        this.generations = generations;
    }

    /** The resources of {@code type} in the account's {@code region} (or global part) at the estate's generation. */
    private List<Generations.Entry> entries(AwsType t, String account, String region) {
        return generations.of(ModelTypes.count(spec, t), i -> make(ids, t, account, regionOf(t, region, i), i, null, null, null, 0,
            Lifetime.ALWAYS, null).arn(), t.service().equals("ec2"), !parent(t));
    }

    /** A type other resources point at (their VpcId, SubnetId): never removed, so the references stay stable. */
    private static boolean parent(AwsType t) {
        return t == AwsType.EC2_VPC || t == AwsType.EC2_SUBNET;
    }

    /**
     * The parent of resource {@code i}: one of the generation-0 parents (never removed, first in the list), so
     * a resource keeps its VPC and subnet from one generation to the next.
     */
    private AwsResource parentOf(List<AwsResource> parents, AwsType parentType, int i) {
        int base = Math.min(parents.size(), ModelTypes.count(spec, parentType));
        return base == 0 ? null : parents.get(i % base);
    }

    /** Where resource {@code i} of an account-wide type (S3) lives; {@code region} for the others. */
    private String regionOf(AwsType t, String region, int i) {
        return t.placement() == AwsType.Placement.ACCOUNT ? spec.regions().get(i % spec.regions().size()) : region;
    }

    static Instant created(Ids ids, String salt) {
        return EPOCH.plusSeconds(ids.random("created/" + salt).nextLong(600L * 24 * 3600));
    }

    /** The regional resources of {@code account} in {@code region}. */
    AwsShard regional(String account, String region) {
        List<AwsResource> out = new ArrayList<>();
        List<AwsResource> vpcs = new ArrayList<>();
        List<AwsResource> subnets = new ArrayList<>();
        for (AwsType t : AwsType.values()) {
            if (!t.countable() || t.placement() != AwsType.Placement.REGIONAL || ModelTypes.child(t)) {
                continue;
            }
            for (Generations.Entry e : entries(t, account, region)) {
                int i = e.index();
                String zone = region + (char) ('a' + (i % 3));
                String vpc = null;
                String subnet = null;
                switch (t) {
                    case EC2_SUBNET, EC2_SECURITY_GROUP, EC2_ROUTE_TABLE, EC2_INTERNET_GATEWAY -> {
                        AwsResource v = parentOf(vpcs, AwsType.EC2_VPC, i);
                        vpc = v == null ? null : v.id();
                    }
                    case EC2_INSTANCE, EC2_NETWORK_INTERFACE, EC2_NAT_GATEWAY -> {
                        AwsResource s = parentOf(subnets, AwsType.EC2_SUBNET, i);
                        if (s != null) {
                            subnet = s.id();
                            vpc = s.vpcId();
                            zone = s.zone();
                        }
                    }
                    default -> {
                    }
                }
                AwsResource r = withChurn(out, t, account, region, i, vpc, subnet, zone, e.env());
                if (t == AwsType.EC2_VPC) {
                    vpcs.add(r);
                } else if (t == AwsType.EC2_SUBNET) {
                    subnets.add(r);
                }
            }
        }
        ModelTypes.children(spec, ids, out);
        return new AwsShard(out);
    }

    /** The account's global part: the organization access role (members), IAM, S3, Route 53, CloudFront. */
    AwsShard global(AwsAccount a, String roleName) {
        List<AwsResource> out = new ArrayList<>();
        if (!a.management()) {
            out.add(new AwsResource(AwsType.IAM_ROLE, a.id(), AwsEstate.GLOBAL, roleName, roleName,
                "arn:aws:iam::" + a.id() + ":role/" + roleName, a.joined(), null, null, null, -1, Lifetime.ALWAYS, null));
        }
        for (AwsType t : AwsType.values()) {
            if (t.countable() && t.placement() != AwsType.Placement.REGIONAL && !ModelTypes.child(t)
                && (a.management() || !ModelTypes.managementOnly(t))) {
                for (Generations.Entry e : entries(t, a.id(), AwsEstate.GLOBAL)) {
                    withChurn(out, t, a.id(), regionOf(t, AwsEstate.GLOBAL, e.index()), e.index(), null, null, null, e.env());
                }
            }
        }
        ModelTypes.children(spec, ids, out);
        return new AwsShard(out);
    }

    /**
     * Calls back with the ARN of every resource of {@code type} in the account's {@code region} (or its global
     * part) that exists throughout: what the security plan ranks, without generating the rest of the shard.
     */
    void eligible(String account, String region, AwsType type, Consumer<String> arns) {
        for (Generations.Entry e : entries(type, account, region)) {
            int i = e.index();
            String arn = make(ids, type, account, regionOf(type, region, i), i, null, null, null, 0, Lifetime.ALWAYS, null).arn();
            if (churn.none() || churn.existing(arn).stable()) {
                arns.accept(arn);
            }
        }
    }

    /** Adds resource {@code i} with its lifetime, and its churned sibling if it has one; returns the resource. */
    private AwsResource withChurn(List<AwsResource> out, AwsType t, String account, String region, int i, String vpc,
                                  String subnet, String zone, String env) {
        AwsResource probe = make(ids, t, account, region, i, vpc, subnet, zone, i * SPACING, Lifetime.ALWAYS, env);
        AwsResource r = probe;
        if (!churn.none()) {
            Lifetime life = churn.existing(probe.arn());
            if (!life.stable()) {
                r = new AwsResource(t, account, region, probe.id(), probe.name(), probe.arn(), probe.created(), vpc, subnet,
                    probe.zone(), probe.ordinal(), life, env);
            }
            Lifetime sibling = churn.sibling(probe.arn());
            if (sibling != null) {
                out.add(make(ids, t, account, region, Churn.SIBLING + i, vpc, subnet, zone, i * SPACING + SPACING / 2,
                    sibling, null));
            }
        }
        out.add(r);
        return r;
    }

    static AwsResource make(Ids ids, AwsType t, String account, String region, int i, String vpc, String subnet,
                            String zone, long ordinal, Lifetime life, String env) {
        if (ModelTypes.has(t)) {
            return ModelTypes.make(ids, t, account, region, i, zone, null, ordinal, life, env);
        }
        String salt = t.cfnType() + "/" + account + "/" + region + "/" + i;
        String h8 = ids.hex(salt, 8);
        String h17 = ids.hex(salt, 17);
        String name = t.service() + "-" + shortName(t) + "-" + (i + 1) + "-" + h8.substring(0, 4);
        String r = region;
        String a = account;
        String id;
        String arn;
        switch (t) {
            case EC2_VPC -> { id = "vpc-" + h17; arn = ec2Arn(r, a, "vpc", id); }
            case EC2_SUBNET -> { id = "subnet-" + h17; arn = ec2Arn(r, a, "subnet", id); }
            case EC2_SECURITY_GROUP -> { id = "sg-" + h17; arn = ec2Arn(r, a, "security-group", id); }
            case EC2_NETWORK_INTERFACE -> { id = "eni-" + h17; arn = ec2Arn(r, a, "network-interface", id); }
            case EC2_INSTANCE -> { id = "i-" + h17; arn = ec2Arn(r, a, "instance", id); }
            case EC2_VOLUME -> { id = "vol-" + h17; arn = ec2Arn(r, a, "volume", id); }
            case EC2_SNAPSHOT -> { id = "snap-" + h17; arn = "arn:aws:ec2:" + r + "::snapshot/" + id; }
            case EC2_IMAGE -> { id = "ami-" + h17; arn = "arn:aws:ec2:" + r + "::image/" + id; }
            case EC2_INTERNET_GATEWAY -> { id = "igw-" + h17; arn = ec2Arn(r, a, "internet-gateway", id); }
            case EC2_NAT_GATEWAY -> { id = "nat-" + h17; arn = ec2Arn(r, a, "natgateway", id); }
            case EC2_ROUTE_TABLE -> { id = "rtb-" + h17; arn = ec2Arn(r, a, "route-table", id); }
            case EC2_KEY_PAIR -> { id = name; arn = ec2Arn(r, a, "key-pair", "key-" + h17); }
            case EC2_EIP -> { id = "eipalloc-" + h17; arn = ec2Arn(r, a, "elastic-ip", id); }
            case EC2_LAUNCH_TEMPLATE -> { id = "lt-" + h17; arn = ec2Arn(r, a, "launch-template", id); }
            case IAM_USER -> { id = name; arn = "arn:aws:iam::" + a + ":user/" + id; }
            case IAM_ROLE -> { id = name; arn = "arn:aws:iam::" + a + ":role/" + id; }
            case IAM_POLICY -> { arn = "arn:aws:iam::" + a + ":policy/" + name; id = arn; }
            case IAM_GROUP -> { id = name; arn = "arn:aws:iam::" + a + ":group/" + id; }
            case S3_BUCKET -> {
                id = "sim-" + a + "-bucket-" + (i + 1) + "-" + h8;
                arn = "arn:aws:s3:::" + id;
            }
            case LAMBDA_FUNCTION -> { id = name; arn = "arn:aws:lambda:" + r + ":" + a + ":function:" + id; }
            case RDS_DB_INSTANCE -> { id = name; arn = "arn:aws:rds:" + r + ":" + a + ":db:" + id; }
            case RDS_DB_CLUSTER -> { id = name; arn = "arn:aws:rds:" + r + ":" + a + ":cluster:" + id; }
            case DYNAMODB_TABLE -> { id = name; arn = "arn:aws:dynamodb:" + r + ":" + a + ":table/" + id; }
            case SNS_TOPIC -> { arn = "arn:aws:sns:" + r + ":" + a + ":" + name; id = arn; }
            case SQS_QUEUE -> {
                arn = "arn:aws:sqs:" + r + ":" + a + ":" + name;
                id = "https://sqs." + r + ".amazonaws.com/" + a + "/" + name;
            }
            case KMS_KEY -> { id = ids.uuid(salt); arn = "arn:aws:kms:" + r + ":" + a + ":key/" + id; }
            case ECS_CLUSTER -> { arn = "arn:aws:ecs:" + r + ":" + a + ":cluster/" + name; id = arn; }
            case EKS_CLUSTER -> { id = name; arn = "arn:aws:eks:" + r + ":" + a + ":cluster/" + id; }
            case CLOUDWATCH_ALARM -> { id = name; arn = "arn:aws:cloudwatch:" + r + ":" + a + ":alarm:" + id; }
            case LOGS_LOG_GROUP -> {
                id = "/sim/" + name;
                arn = "arn:aws:logs:" + r + ":" + a + ":log-group:" + id;
            }
            case ROUTE53_HOSTED_ZONE -> {
                String z = "Z" + ids.upperAlnum(salt, 20);
                id = z;
                arn = "arn:aws:route53:::hostedzone/" + z;
            }
            case CLOUDFORMATION_STACK -> {
                arn = "arn:aws:cloudformation:" + r + ":" + a + ":stack/" + name + "/" + ids.uuid(salt);
                id = arn;
            }
            case SSM_PARAMETER -> {
                id = "/sim/" + name;
                arn = "arn:aws:ssm:" + r + ":" + a + ":parameter" + id;
            }
            case SECRETSMANAGER_SECRET -> {
                arn = "arn:aws:secretsmanager:" + r + ":" + a + ":secret:" + name + "-" + ids.upperAlnum(salt, 6);
                id = arn;
            }
            case CLOUDTRAIL_TRAIL -> { arn = "arn:aws:cloudtrail:" + r + ":" + a + ":trail/" + name; id = arn; }
            case ELBV2_LOAD_BALANCER -> {
                arn = "arn:aws:elasticloadbalancing:" + r + ":" + a + ":loadbalancer/app/" + name + "/"
                    + ids.hex(salt + "/lb", 16);
                id = arn;
            }
            case AUTOSCALING_GROUP -> {
                id = name;
                arn = "arn:aws:autoscaling:" + r + ":" + a + ":autoScalingGroup:" + ids.uuid(salt)
                    + ":autoScalingGroupName/" + id;
            }
            case ECR_REPOSITORY -> { id = name; arn = "arn:aws:ecr:" + r + ":" + a + ":repository/" + id; }
            case APIGATEWAY_REST_API -> {
                id = ids.lowerAlnum(salt, 10);
                arn = "arn:aws:apigateway:" + r + "::/restapis/" + id;
            }
            case CLOUDFRONT_DISTRIBUTION -> {
                id = "E" + ids.upperAlnum(salt, 13);
                arn = "arn:aws:cloudfront::" + a + ":distribution/" + id;
            }
            case EFS_FILE_SYSTEM -> { id = "fs-" + h17; arn = "arn:aws:elasticfilesystem:" + r + ":" + a + ":file-system/" + id; }
            case ELASTICACHE_CACHE_CLUSTER -> { id = name; arn = "arn:aws:elasticache:" + r + ":" + a + ":cluster:" + id; }
            case ACM_CERTIFICATE -> {
                arn = "arn:aws:acm:" + r + ":" + a + ":certificate/" + ids.uuid(salt);
                id = arn;
            }
            default -> throw new IllegalStateException("not generated from counts: " + t);
        }
        return new AwsResource(t, account, region, id, name, arn, created(ids, salt), vpc, subnet,
            t.placement() == AwsType.Placement.REGIONAL ? zone : null, ordinal, life, env);
    }

    private static String ec2Arn(String region, String account, String kind, String id) {
        return "arn:aws:ec2:" + region + ":" + account + ":" + kind + "/" + id;
    }

    private static String shortName(AwsType t) {
        String c = t.cfnType();
        return c.substring(c.lastIndexOf(':') + 1).toLowerCase(Locale.ROOT);
    }

}
