package io.cloudg.sim.estate;

import io.cloudg.sim.Asset;
import io.cloudg.sim.Findings;
import io.cloudg.sim.Truth;
import io.cloudg.sim.config.AwsSpec;
import io.cloudg.sim.config.AzureSpec;
import io.cloudg.sim.config.EstateSpec;
import io.cloudg.sim.config.GcpSpec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The whole simulated world, generated deterministically from a spec and a seed. */
public final class Estate {
    private static final Instant EPOCH = Instant.parse("2023-01-01T00:00:00Z");

    private final AwsEstate aws;
    private final AzureEstate azure;
    private final GcpEstate gcp;
    private final Truth truth;
    private final Findings findings;

    private Estate(AwsEstate aws, AzureEstate azure, GcpEstate gcp) {
        this.aws = aws;
        this.azure = azure;
        this.gcp = gcp;
        this.truth = buildTruth();
        this.findings = buildFindings();
    }

    public static Estate generate(EstateSpec spec, long seed) {
        Ids ids = new Ids(seed);
        return new Estate(generateAws(spec.aws(), ids), generateAzure(spec.azure(), ids), generateGcp(spec.gcp(), ids));
    }

    public AwsEstate aws() {
        return aws;
    }

    public AzureEstate azure() {
        return azure;
    }

    public GcpEstate gcp() {
        return gcp;
    }

    public Truth truth() {
        return truth;
    }

    /** The security findings the AWS estate holds by construction. */
    public Findings findings() {
        return findings;
    }

    private static Instant created(Ids ids, String salt) {
        return EPOCH.plusSeconds(ids.random("created/" + salt).nextLong(600L * 24 * 3600));
    }

    // ---------------------------------------------------------------- AWS

    private static AwsEstate generateAws(AwsSpec spec, Ids ids) {
        String mgmt = spec.managementAccount() != null ? spec.managementAccount() : ids.digits("aws/management", 12);
        String org = spec.organizationId() != null ? spec.organizationId() : "o-" + ids.lowerAlnum("aws/org", 10);
        List<AwsAccount> accounts = new ArrayList<>();
        accounts.add(new AwsAccount(mgmt, "management", "aws+management@example.com", true, created(ids, "acct/0")));
        java.util.Set<String> used = new java.util.HashSet<>(List.of(mgmt));
        for (int i = 1; i < spec.accounts(); i++) {
            String id = ids.digits("aws/account/" + i, 12);
            for (int k = 0; !used.add(id); k++) {
                id = ids.digits("aws/account/" + i + "/" + k, 12);
            }
            accounts.add(new AwsAccount(id, String.format(Locale.ROOT, "member-%03d", i),
                String.format(Locale.ROOT, "aws+member-%03d@example.com", i), false, created(ids, "acct/" + i)));
        }
        List<AwsResource> out = new ArrayList<>();
        for (AwsAccount a : accounts) {
            out.add(new AwsResource(AwsType.ORGANIZATIONS_ACCOUNT, a.id(), AwsEstate.GLOBAL, a.id(), a.name(),
                "arn:aws:organizations::" + mgmt + ":account/" + org + "/" + a.id(), a.joined(), null, null, null));
            if (!a.management()) {
                out.add(new AwsResource(AwsType.IAM_ROLE, a.id(), AwsEstate.GLOBAL, spec.roleName(), spec.roleName(),
                    "arn:aws:iam::" + a.id() + ":role/" + spec.roleName(), a.joined(), null, null, null));
            }
            for (String region : spec.regions()) {
                new AwsRegionBuilder(ids, a.id(), region, out).build(spec);
            }
            for (AwsType t : AwsType.values()) {
                if (t.countable() && t.placement() != AwsType.Placement.REGIONAL && !ModelTypes.child(t)) {
                    for (int i = 0; i < ModelTypes.count(spec, t, a.management()); i++) {
                        String region = t.placement() == AwsType.Placement.ACCOUNT
                            ? spec.regions().get(i % spec.regions().size()) : AwsEstate.GLOBAL;
                        out.add(AwsRegionBuilder.make(ids, t, a.id(), region, i, null, null, null));
                    }
                }
            }
        }
        ModelTypes.children(spec, ids, out);
        return new AwsEstate(org, accounts, spec.regions(), spec.roleName(), out,
            AwsSecurity.generate(spec.security(), ids, accounts, out));
    }

    /** Builds one account x region, wiring subnets to VPCs and instances to subnets. */
    private static final class AwsRegionBuilder {
        private final Ids ids;
        private final String account;
        private final String region;
        private final List<AwsResource> out;

        AwsRegionBuilder(Ids ids, String account, String region, List<AwsResource> out) {
            this.ids = ids;
            this.account = account;
            this.region = region;
            this.out = out;
        }

        void build(AwsSpec spec) {
            List<AwsResource> vpcs = new ArrayList<>();
            List<AwsResource> subnets = new ArrayList<>();
            for (AwsType t : AwsType.values()) {
                if (!t.countable() || t.placement() != AwsType.Placement.REGIONAL || ModelTypes.child(t)) {
                    continue;
                }
                for (int i = 0; i < ModelTypes.count(spec, t); i++) {
                    String zone = region + (char) ('a' + (i % 3));
                    String vpc = null;
                    String subnet = null;
                    switch (t) {
                        case EC2_SUBNET, EC2_SECURITY_GROUP, EC2_ROUTE_TABLE, EC2_INTERNET_GATEWAY ->
                            vpc = vpcs.isEmpty() ? null : vpcs.get(i % vpcs.size()).id();
                        case EC2_INSTANCE, EC2_NETWORK_INTERFACE, EC2_NAT_GATEWAY -> {
                            AwsResource s = subnets.isEmpty() ? null : subnets.get(i % subnets.size());
                            if (s != null) {
                                subnet = s.id();
                                vpc = s.vpcId();
                                zone = s.zone();
                            }
                        }
                        default -> {
                        }
                    }
                    AwsResource r = make(ids, t, account, region, i, vpc, subnet, zone);
                    if (t == AwsType.EC2_VPC) {
                        vpcs.add(r);
                    } else if (t == AwsType.EC2_SUBNET) {
                        subnets.add(r);
                    }
                    out.add(r);
                }
            }
        }

        static AwsResource make(Ids ids, AwsType t, String account, String region, int i, String vpc, String subnet,
                                String zone) {
            if (ModelTypes.has(t)) {
                return ModelTypes.make(ids, t, account, region, i, zone, null);
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
                t.placement() == AwsType.Placement.REGIONAL ? zone : null);
        }

        private static String ec2Arn(String region, String account, String kind, String id) {
            return "arn:aws:ec2:" + region + ":" + account + ":" + kind + "/" + id;
        }

        private static String shortName(AwsType t) {
            String c = t.cfnType();
            return c.substring(c.lastIndexOf(':') + 1).toLowerCase(Locale.ROOT);
        }
    }

    // ---------------------------------------------------------------- Azure

    private static AzureEstate generateAzure(AzureSpec spec, Ids ids) {
        String tenant = spec.tenantId() != null ? spec.tenantId() : ids.uuid("azure/tenant");
        List<AzureSubscription> subs = new ArrayList<>();
        Map<String, List<AzureResourceGroup>> groups = new LinkedHashMap<>();
        Map<String, List<AzureResource>> resources = new LinkedHashMap<>();
        for (int s = 0; s < spec.subscriptions(); s++) {
            AzureSubscription sub = new AzureSubscription(ids.uuid("azure/subscription/" + s),
                String.format(Locale.ROOT, "sim-subscription-%02d", s + 1), tenant);
            subs.add(sub);
            List<AzureResourceGroup> rgs = new ArrayList<>();
            for (int g = 0; g < spec.resourceGroups(); g++) {
                rgs.add(new AzureResourceGroup(sub.id(), String.format(Locale.ROOT, "rg-sim-%02d", g + 1),
                    spec.locations().get(g % spec.locations().size())));
            }
            groups.put(sub.id(), List.copyOf(rgs));
            List<AzureResource> rs = new ArrayList<>();
            for (Map.Entry<String, Integer> e : spec.counts().entrySet()) {
                String type = e.getKey();
                String leaf = type.substring(type.indexOf('/') + 1).toLowerCase(Locale.ROOT);
                for (int i = 0; i < e.getValue(); i++) {
                    AzureResourceGroup rg = rgs.get(i % rgs.size());
                    String name = shortLeaf(leaf) + "-" + (i + 1) + "-" + ids.hex("azure/" + sub.id() + "/" + type + "/" + i, 6);
                    rs.add(new AzureResource(sub.id(), rg.name(), type, name, rg.location()));
                }
            }
            resources.put(sub.id(), List.copyOf(rs));
        }
        return new AzureEstate(tenant, subs, groups, resources, spec.pageSize());
    }

    private static String shortLeaf(String leaf) {
        String s = leaf.replaceAll("[aeiou]", "");
        return s.length() > 8 ? s.substring(0, 8) : s;
    }

    // ---------------------------------------------------------------- GCP

    private static GcpEstate generateGcp(GcpSpec spec, Ids ids) {
        String org = spec.organization() != null ? spec.organization() : ids.digits("gcp/org", 12);
        String orgName = "//cloudresourcemanager.googleapis.com/organizations/" + org;
        List<GcpAsset> orgAssets = List.of(new GcpAsset(GcpEstate.ORGANIZATION_TYPE, orgName, null, "global",
            "example.com", null, null));
        List<GcpProject> projects = new ArrayList<>();
        Map<String, List<GcpAsset>> assets = new LinkedHashMap<>();
        for (int p = 0; p < spec.projects(); p++) {
            GcpProject project = new GcpProject("sim-project-" + (p + 1) + "-" + ids.lowerAlnum("gcp/project/" + p, 4),
                Long.parseLong(ids.digits("gcp/project-number/" + p, 12)), "Sim project " + (p + 1));
            projects.add(project);
            List<GcpAsset> list = new ArrayList<>();
            String projectName = "//cloudresourcemanager.googleapis.com/projects/" + project.number();
            list.add(new GcpAsset(GcpEstate.PROJECT_TYPE, projectName, project, "global", project.id(), orgName,
                GcpEstate.ORGANIZATION_TYPE));
            for (Map.Entry<String, Integer> e : spec.counts().entrySet()) {
                for (int i = 0; i < e.getValue(); i++) {
                    String region = spec.locations().get(i % spec.locations().size());
                    list.add(gcpAsset(ids, project, projectName, e.getKey(), i, region));
                }
            }
            assets.put(project.id(), List.copyOf(list));
        }
        return new GcpEstate(org, projects, assets, orgAssets);
    }

    private static GcpAsset gcpAsset(Ids ids, GcpProject p, String projectName, String type, int i, String region) {
        String service = type.substring(0, type.indexOf('/'));
        String kind = type.substring(type.indexOf('/') + 1);
        String n = kind.toLowerCase(Locale.ROOT) + "-" + (i + 1) + "-" + ids.lowerAlnum("gcp/" + p.id() + "/" + type + "/" + i, 4);
        String zone = region + "-" + (char) ('a' + (i % 3));
        String pid = p.id();
        String name;
        String location;
        switch (type) {
            case "compute.googleapis.com/Instance" -> { name = "//" + service + "/projects/" + pid + "/zones/" + zone + "/instances/" + n; location = zone; }
            case "compute.googleapis.com/Disk" -> { name = "//" + service + "/projects/" + pid + "/zones/" + zone + "/disks/" + n; location = zone; }
            case "compute.googleapis.com/Network" -> { name = "//" + service + "/projects/" + pid + "/global/networks/" + n; location = "global"; }
            case "compute.googleapis.com/Subnetwork" -> { name = "//" + service + "/projects/" + pid + "/regions/" + region + "/subnetworks/" + n; location = region; }
            case "storage.googleapis.com/Bucket" -> { n = pid + "-" + n; name = "//" + service + "/" + n; location = region; }
            case "iam.googleapis.com/ServiceAccount" -> {
                name = "//" + service + "/projects/" + pid + "/serviceAccounts/" + ids.digits("gcp/sa/" + pid + "/" + i, 21);
                location = "global";
            }
            case "pubsub.googleapis.com/Topic" -> { name = "//" + service + "/projects/" + pid + "/topics/" + n; location = "global"; }
            case "container.googleapis.com/Cluster" -> { name = "//" + service + "/projects/" + pid + "/locations/" + region + "/clusters/" + n; location = region; }
            case "sqladmin.googleapis.com/Instance" -> { name = "//cloudsql.googleapis.com/projects/" + pid + "/instances/" + n; location = region; }
            default -> {
                String plural = Character.toLowerCase(kind.charAt(0)) + kind.substring(1) + "s";
                name = "//" + service + "/projects/" + pid + "/locations/" + region + "/" + plural + "/" + n;
                location = region;
            }
        }
        return new GcpAsset(type, name, p, location, n, projectName, GcpEstate.PROJECT_TYPE);
    }

    // ---------------------------------------------------------------- truth

    private Findings buildFindings() {
        AwsSecurity s = aws.security();
        List<Findings.PublicBucket> buckets = new ArrayList<>();
        List<Findings.OpenSecurityGroup> groups = new ArrayList<>();
        List<Findings.UserWithoutMfa> users = new ArrayList<>();
        for (AwsResource r : aws.all()) {
            switch (r.type()) {
                case S3_BUCKET -> {
                    AwsSecurity.Bucket b = s.bucket(r.id());
                    if (b.isPublic()) {
                        buckets.add(new Findings.PublicBucket(r.account(), r.region(), r.id(), b.publicViaPolicy(),
                            b.publicViaAcl()));
                    }
                }
                case EC2_SECURITY_GROUP -> {
                    List<Integer> ports = List.copyOf(s.securityGroup(r.id()).adminPortsOpenToAnywhere());
                    if (!ports.isEmpty()) {
                        groups.add(new Findings.OpenSecurityGroup(r.account(), r.region(), r.id(), r.name(), ports));
                    }
                }
                case IAM_USER -> {
                    if (s.mfaDevices(r.account(), r.id()).isEmpty()) {
                        users.add(new Findings.UserWithoutMfa(r.account(), r.id()));
                    }
                }
                default -> {
                }
            }
        }
        return new Findings(buckets, groups, users);
    }

    private Truth buildTruth() {
        List<Asset> out = new ArrayList<>();
        for (AwsResource r : aws.all()) {
            out.add(new Asset("aws", r.account(), r.region(), r.type().service(), r.type().cfnType(), r.id(), r.arn()));
        }
        for (AzureSubscription s : azure.subscriptions()) {
            out.add(new Asset("azure", s.id(), "global", "Microsoft.Resources", "Microsoft.Resources/subscriptions",
                s.armId(), null));
            for (AzureResourceGroup g : azure.resourceGroups(s.id())) {
                out.add(new Asset("azure", s.id(), g.location(), "Microsoft.Resources", "Microsoft.Resources/resourceGroups",
                    g.armId(), null));
            }
            for (AzureResource r : azure.resources(s.id())) {
                out.add(new Asset("azure", s.id(), r.location(), r.namespace(), r.type(), r.armId(), null));
            }
        }
        for (GcpAsset a : gcp.organizationAssets()) {
            out.add(new Asset("gcp", "organizations/" + gcp.organization(), a.location(), a.service(), a.assetType(),
                a.name(), null));
        }
        for (GcpProject p : gcp.projects()) {
            for (GcpAsset a : gcp.assets(p)) {
                out.add(new Asset("gcp", p.id(), a.location(), a.service(), a.assetType(), a.name(), null));
            }
        }
        return new Truth(out);
    }
}
