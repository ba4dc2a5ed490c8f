package io.cloudg.sim.estate;

import io.cloudg.sim.config.AwsSpec;
import io.cloudg.sim.core.AwsType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How the estate generates the resource types declared as data (those served by
 * {@code io.cloudg.sim.aws.ModelOperations}): each type's id rule ({@code hex:vpce-} a prefix and 17 hex
 * digits, {@code name}, {@code arn}, {@code uuid}, {@code lower:N}, {@code hex32}, {@code singleton}, or a
 * template {@code tmpl:{parent}/{name}}) and ARN template ({@code {region}}, {@code {account}}, {@code {id}},
 * {@code {name}}, {@code {uuid}}, {@code {hexN}}, {@code {lowerN}}, {@code {upperN}}, {@code {parent}},
 * {@code {parentName}}; {@code LISTENER} derives an ELBv2 listener's ARN from its load balancer's), and for
 * child types (a cluster's services, a zone's record sets) the parent type and how a child names its parent.
 * Children are generated after every parent of their account and region, round-robin over the parents; a
 * singleton type (one per account x region, like a Security Hub subscription) has at most one.
 */
public final class ModelTypes {
    private static final Instant EPOCH = Instant.parse("2023-01-01T00:00:00Z");
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{(hex|lower|upper)(\\d+)}");

    /** How one type is generated. */
    record Rule(String id, String arn, AwsType parent, String parentKey) {
    }

    private static final Map<AwsType, Rule> RULES = new EnumMap<>(AwsType.class);

    private static void rule(AwsType t, String id, String arn) {
        RULES.put(t, new Rule(id, arn, null, null));
    }

    private static void rule(AwsType t, String id, String arn, AwsType parent, String parentKey) {
        RULES.put(t, new Rule(id, arn, parent, parentKey));
    }

    static {
        rule(AwsType.EC2_VPC_ENDPOINT, "hex:vpce-", "arn:aws:ec2:{region}:{account}:vpc-endpoint/{id}");
        rule(AwsType.EC2_VPC_PEERING, "hex:pcx-", "arn:aws:ec2:{region}:{account}:vpc-peering-connection/{id}");
        rule(AwsType.EC2_TRANSIT_GATEWAY, "hex:tgw-", "arn:aws:ec2:{region}:{account}:transit-gateway/{id}");
        rule(AwsType.EC2_TRANSIT_GATEWAY_ATTACHMENT, "hex:tgw-attach-", "arn:aws:ec2:{region}:{account}:transit-gateway-attachment/{id}");
        rule(AwsType.EC2_TRANSIT_GATEWAY_ROUTE_TABLE, "hex:tgw-rtb-", "arn:aws:ec2:{region}:{account}:transit-gateway-route-table/{id}");
        rule(AwsType.EC2_FLOW_LOG, "hex:fl-", "arn:aws:ec2:{region}:{account}:vpc-flow-log/{id}");
        rule(AwsType.EC2_NETWORK_ACL, "hex:acl-", "arn:aws:ec2:{region}:{account}:network-acl/{id}");
        rule(AwsType.EC2_CUSTOMER_GATEWAY, "hex:cgw-", "arn:aws:ec2:{region}:{account}:customer-gateway/{id}");
        rule(AwsType.EC2_VPN_GATEWAY, "hex:vgw-", "arn:aws:ec2:{region}:{account}:vpn-gateway/{id}");
        rule(AwsType.EC2_VPN_CONNECTION, "hex:vpn-", "arn:aws:ec2:{region}:{account}:vpn-connection/{id}");
        rule(AwsType.EC2_DHCP_OPTIONS, "hex:dopt-", "arn:aws:ec2:{region}:{account}:dhcp-options/{id}");
        rule(AwsType.EC2_EGRESS_ONLY_IGW, "hex:eigw-", "arn:aws:ec2:{region}:{account}:egress-only-internet-gateway/{id}");
        rule(AwsType.EC2_PLACEMENT_GROUP, "hex:pg-", "arn:aws:ec2:{region}:{account}:placement-group/{id}");
        rule(AwsType.EC2_PREFIX_LIST, "hex:pl-", "arn:aws:ec2:{region}:{account}:prefix-list/{id}");
        rule(AwsType.EC2_CAPACITY_RESERVATION, "hex:cr-", "arn:aws:ec2:{region}:{account}:capacity-reservation/{id}");
        rule(AwsType.EC2_FLEET, "hex:fleet-", "arn:aws:ec2:{region}:{account}:fleet/{id}");
        rule(AwsType.EC2_SPOT_FLEET, "hex:sfr-", "arn:aws:ec2:{region}:{account}:spot-fleet-request/{id}");
        rule(AwsType.EC2_HOST, "hex:h-", "arn:aws:ec2:{region}:{account}:dedicated-host/{id}");
        rule(AwsType.EC2_VPC_ENDPOINT_SERVICE, "hex:vpce-svc-", "arn:aws:ec2:{region}:{account}:vpc-endpoint-service/{id}");
        rule(AwsType.EC2_TRAFFIC_MIRROR_SESSION, "hex:tms-", "arn:aws:ec2:{region}:{account}:traffic-mirror-session/{id}");
        rule(AwsType.EC2_CLIENT_VPN_ENDPOINT, "hex:cvpn-endpoint-", "arn:aws:ec2:{region}:{account}:client-vpn-endpoint/{id}");
        rule(AwsType.IAM_INSTANCE_PROFILE, "name", "arn:aws:iam::{account}:instance-profile/{name}");
        rule(AwsType.IAM_SAML_PROVIDER, "arn", "arn:aws:iam::{account}:saml-provider/{name}");
        rule(AwsType.IAM_OIDC_PROVIDER, "arn", "arn:aws:iam::{account}:oidc-provider/{name}");
        rule(AwsType.IAM_SERVER_CERTIFICATE, "name", "arn:aws:iam::{account}:server-certificate/{name}");
        rule(AwsType.IAM_PASSWORD_POLICY, "singleton:{account}", "arn:aws:iam::{account}:account-password-policy");
        rule(AwsType.IAM_VIRTUAL_MFA_DEVICE, "arn", "arn:aws:iam::{account}:mfa/{name}");
        rule(AwsType.KMS_ALIAS, "tmpl:alias/{name}", "arn:aws:kms:{region}:{account}:{id}");
        rule(AwsType.LAMBDA_LAYER, "name", "arn:aws:lambda:{region}:{account}:layer:{id}");
        rule(AwsType.LAMBDA_EVENT_SOURCE_MAPPING, "uuid", "arn:aws:lambda:{region}:{account}:event-source-mapping:{id}");
        rule(AwsType.RDS_DB_SNAPSHOT, "name", "arn:aws:rds:{region}:{account}:snapshot:{id}");
        rule(AwsType.RDS_DB_CLUSTER_SNAPSHOT, "name", "arn:aws:rds:{region}:{account}:cluster-snapshot:{id}");
        rule(AwsType.RDS_DB_SUBNET_GROUP, "name", "arn:aws:rds:{region}:{account}:subgrp:{id}");
        rule(AwsType.RDS_DB_PARAMETER_GROUP, "name", "arn:aws:rds:{region}:{account}:pg:{id}");
        rule(AwsType.RDS_OPTION_GROUP, "name", "arn:aws:rds:{region}:{account}:og:{id}");
        rule(AwsType.RDS_EVENT_SUBSCRIPTION, "name", "arn:aws:rds:{region}:{account}:es:{id}");
        rule(AwsType.RDS_DB_PROXY, "name", "arn:aws:rds:{region}:{account}:db-proxy:{hex16}");
        rule(AwsType.DYNAMODB_BACKUP, "arn", "arn:aws:dynamodb:{region}:{account}:table/{name}/backup/{hex16}");
        rule(AwsType.ECS_SERVICE, "arn", "arn:aws:ecs:{region}:{account}:service/{parentName}/{name}", AwsType.ECS_CLUSTER, "before-service");
        rule(AwsType.ECS_TASK_DEFINITION, "arn", "arn:aws:ecs:{region}:{account}:task-definition/{name}:1");
        rule(AwsType.EKS_NODEGROUP, "tmpl:{parent}/{name}", "arn:aws:eks:{region}:{account}:nodegroup/{parent}/{name}/{uuid}", AwsType.EKS_CLUSTER, "before/");
        rule(AwsType.ELB_LOAD_BALANCER, "name", "arn:aws:elasticloadbalancing:{region}:{account}:loadbalancer/{name}");
        rule(AwsType.ELBV2_LISTENER, "arn", "LISTENER", AwsType.ELBV2_LOAD_BALANCER, "listener");
        rule(AwsType.ELBV2_TARGET_GROUP, "arn", "arn:aws:elasticloadbalancing:{region}:{account}:targetgroup/{name}/{hex16}");
        rule(AwsType.ROUTE53_RECORD_SET, "tmpl:{parent}|{name}.example.com.|CNAME", "arn:aws:route53:::hostedzone/{parent}/recordset/{name}", AwsType.ROUTE53_HOSTED_ZONE, "before|");
        rule(AwsType.ROUTE53_HEALTH_CHECK, "uuid", "arn:aws:route53:::healthcheck/{id}");
        rule(AwsType.CONFIG_RECORDER, "name", "arn:aws:config:{region}:{account}:configuration-recorder/{name}/{hex16}");
        rule(AwsType.CONFIG_RULE, "name", "arn:aws:config:{region}:{account}:config-rule/config-rule-{hex6}");
        rule(AwsType.CONFIG_DELIVERY_CHANNEL, "name", "arn:aws:config:{region}:{account}:delivery-channel/{name}");
        rule(AwsType.CONFIG_AGGREGATOR, "name", "arn:aws:config:{region}:{account}:config-aggregator/config-aggregator-{hex6}");
        rule(AwsType.GUARDDUTY_DETECTOR, "hex32", "arn:aws:guardduty:{region}:{account}:detector/{id}");
        rule(AwsType.SECURITYHUB_HUB, "singleton", "arn:aws:securityhub:{region}:{account}:hub/default");
        rule(AwsType.SECURITYHUB_STANDARD, "arn", "arn:aws:securityhub:{region}:{account}:subscription/{name}/v/1.0.0");
        rule(AwsType.ORGANIZATIONS_POLICY, "tmpl:p-{lower8}", "arn:aws:organizations::{account}:policy/o-sim/service_control_policy/{id}");
        rule(AwsType.SNS_SUBSCRIPTION, "arn", "arn:aws:sns:{region}:{account}:{name}:{uuid}");
        rule(AwsType.SSM_DOCUMENT, "name", "arn:aws:ssm:{region}:{account}:document/{name}");
        rule(AwsType.SSM_MANAGED_INSTANCE, "hex:mi-", "arn:aws:ssm:{region}:{account}:managed-instance/{id}");
        rule(AwsType.SSM_PATCH_BASELINE, "hex:pb-", "arn:aws:ssm:{region}:{account}:patchbaseline/{id}");
        rule(AwsType.CLOUDWATCH_DASHBOARD, "name", "arn:aws:cloudwatch::{account}:dashboard/{name}");
        rule(AwsType.LOGS_DESTINATION, "name", "arn:aws:logs:{region}:{account}:destination:{name}");
        rule(AwsType.ECR_REGISTRY_SCANNING, "singleton:{account}/{region}", "arn:aws:ecr:{region}:{account}:registry/{account}");
        rule(AwsType.EFS_ACCESS_POINT, "hex:fsap-", "arn:aws:elasticfilesystem:{region}:{account}:access-point/{id}");
        rule(AwsType.ELASTICACHE_REPLICATION_GROUP, "name", "arn:aws:elasticache:{region}:{account}:replicationgroup:{name}");
        rule(AwsType.ELASTICACHE_SUBNET_GROUP, "name", "arn:aws:elasticache:{region}:{account}:subnetgroup:{name}");
        rule(AwsType.ELASTICACHE_SNAPSHOT, "name", "arn:aws:elasticache:{region}:{account}:snapshot:{name}");
        rule(AwsType.REDSHIFT_CLUSTER, "name", "arn:aws:redshift:{region}:{account}:cluster:{name}");
        rule(AwsType.REDSHIFT_SUBNET_GROUP, "name", "arn:aws:redshift:{region}:{account}:subnetgroup:{name}");
        rule(AwsType.OPENSEARCH_DOMAIN, "lower:12", "arn:aws:es:{region}:{account}:domain/{id}");
        rule(AwsType.KINESIS_STREAM, "name", "arn:aws:kinesis:{region}:{account}:stream/{name}");
        rule(AwsType.FIREHOSE_DELIVERY_STREAM, "name", "arn:aws:firehose:{region}:{account}:deliverystream/{name}");
        rule(AwsType.GLUE_DATABASE, "name", "arn:aws:glue:{region}:{account}:database/{name}");
        rule(AwsType.GLUE_JOB, "name", "arn:aws:glue:{region}:{account}:job/{name}");
        rule(AwsType.GLUE_CRAWLER, "name", "arn:aws:glue:{region}:{account}:crawler/{name}");
        rule(AwsType.GLUE_CONNECTION, "name", "arn:aws:glue:{region}:{account}:connection/{name}");
        rule(AwsType.GLUE_TRIGGER, "name", "arn:aws:glue:{region}:{account}:trigger/{name}");
        rule(AwsType.ATHENA_WORKGROUP, "name", "arn:aws:athena:{region}:{account}:workgroup/{name}");
        rule(AwsType.ATHENA_DATA_CATALOG, "name", "arn:aws:athena:{region}:{account}:datacatalog/{name}");
        rule(AwsType.APIGATEWAY_STAGE, "tmpl:{parent}/{name}", "arn:aws:apigateway:{region}::/restapis/{parent}/stages/{name}", AwsType.APIGATEWAY_REST_API, "before/");
        rule(AwsType.APIGATEWAY_DOMAIN_NAME, "tmpl:{name}.example.com", "arn:aws:apigateway:{region}::/domainnames/{id}");
        rule(AwsType.APIGATEWAYV2_API, "lower:10", "arn:aws:apigateway:{region}::/apis/{id}");
        rule(AwsType.APIGATEWAYV2_DOMAIN_NAME, "tmpl:{name}.v2.example.com", "arn:aws:apigateway:{region}::/domainnames/{id}");
        rule(AwsType.COGNITO_USER_POOL, "tmpl:{region}_{upper9}", "arn:aws:cognito-idp:{region}:{account}:userpool/{id}");
        rule(AwsType.COGNITO_IDENTITY_POOL, "tmpl:{region}:{uuid}", "arn:aws:cognito-identity:{region}:{account}:identitypool/{id}");
        rule(AwsType.SFN_STATE_MACHINE, "arn", "arn:aws:states:{region}:{account}:stateMachine:{name}");
        rule(AwsType.SFN_ACTIVITY, "arn", "arn:aws:states:{region}:{account}:activity:{name}");
        rule(AwsType.EVENTS_EVENT_BUS, "name", "arn:aws:events:{region}:{account}:event-bus/{name}");
        rule(AwsType.EVENTS_RULE, "arn", "arn:aws:events:{region}:{account}:rule/{name}");
        rule(AwsType.BACKUP_VAULT, "name", "arn:aws:backup:{region}:{account}:backup-vault:{name}");
        rule(AwsType.BACKUP_PLAN, "uuid", "arn:aws:backup:{region}:{account}:backup-plan:{id}");
        rule(AwsType.WAFV2_WEB_ACL, "uuid", "arn:aws:wafv2:{region}:{account}:regional/webacl/{name}/{id}");
        rule(AwsType.WAFV2_IP_SET, "uuid", "arn:aws:wafv2:{region}:{account}:regional/ipset/{name}/{id}");
        rule(AwsType.WAFV2_RULE_GROUP, "uuid", "arn:aws:wafv2:{region}:{account}:regional/rulegroup/{name}/{id}");
        rule(AwsType.ACCESSANALYZER_ANALYZER, "arn", "arn:aws:access-analyzer:{region}:{account}:analyzer/{name}");
        rule(AwsType.AUTOSCALING_LAUNCH_CONFIGURATION, "name", "arn:aws:autoscaling:{region}:{account}:launchConfiguration:{uuid}:launchConfigurationName/{name}");
        rule(AwsType.SAGEMAKER_NOTEBOOK_INSTANCE, "name", "arn:aws:sagemaker:{region}:{account}:notebook-instance/{name}");
        rule(AwsType.SAGEMAKER_ENDPOINT, "name", "arn:aws:sagemaker:{region}:{account}:endpoint/{name}");
        rule(AwsType.SAGEMAKER_MODEL, "name", "arn:aws:sagemaker:{region}:{account}:model/{name}");
        rule(AwsType.SAGEMAKER_DOMAIN, "tmpl:d-{lower12}", "arn:aws:sagemaker:{region}:{account}:domain/{id}");
        rule(AwsType.CODEBUILD_PROJECT, "name", "arn:aws:codebuild:{region}:{account}:project/{name}");
        rule(AwsType.CODEBUILD_REPORT_GROUP, "arn", "arn:aws:codebuild:{region}:{account}:report-group/{name}");
        rule(AwsType.MSK_CLUSTER, "arn", "arn:aws:kafka:{region}:{account}:cluster/{name}/{uuid}");
        rule(AwsType.CLOUDFORMATION_STACK_SET, "tmpl:{name}:{uuid}", "arn:aws:cloudformation:{region}:{account}:stackset/{id}");
        rule(AwsType.EMR_CLUSTER, "tmpl:j-{upper13}", "arn:aws:elasticmapreduce:{region}:{account}:cluster/{id}");
        rule(AwsType.CODEPIPELINE_PIPELINE, "name", "arn:aws:codepipeline:{region}:{account}:{name}");
        rule(AwsType.TRANSFER_SERVER, "tmpl:s-{lower17}", "arn:aws:transfer:{region}:{account}:server/{id}");
        rule(AwsType.MQ_BROKER, "tmpl:b-{uuid}", "arn:aws:mq:{region}:{account}:broker:{name}:{id}");
        rule(AwsType.FSX_FILE_SYSTEM, "hex:fs-", "arn:aws:fsx:{region}:{account}:file-system/{id}");
        rule(AwsType.BATCH_COMPUTE_ENVIRONMENT, "arn", "arn:aws:batch:{region}:{account}:compute-environment/{name}");
        rule(AwsType.BATCH_JOB_QUEUE, "arn", "arn:aws:batch:{region}:{account}:job-queue/{name}");
        rule(AwsType.APPSYNC_GRAPHQL_API, "lower:26", "arn:aws:appsync:{region}:{account}:apis/{id}");
        rule(AwsType.NETWORKFIREWALL_FIREWALL, "arn", "arn:aws:network-firewall:{region}:{account}:firewall/{name}");
        rule(AwsType.CLOUDTRAIL_EVENT_DATA_STORE, "arn", "arn:aws:cloudtrail:{region}:{account}:eventdatastore/{uuid}");
    }

    private ModelTypes() {
    }

    /** Whether {@code t} is generated here. */
    public static boolean has(AwsType t) {
        return RULES.containsKey(t);
    }

    /** Whether {@code t} is listed per parent (generated after its parents). */
    public static boolean child(AwsType t) {
        Rule r = RULES.get(t);
        return r != null && r.parent() != null;
    }

    /** The parent type of a child type. */
    public static AwsType parentType(AwsType t) {
        Rule r = RULES.get(t);
        if (r == null || r.parent() == null) {
            throw new IllegalArgumentException(t + " has no parent");
        }
        return r.parent();
    }

    /** Whether {@code t} exists at most once per account x region. */
    public static boolean singleton(AwsType t) {
        Rule r = RULES.get(t);
        return r != null && r.id().startsWith("singleton");
    }

    /** The id of the parent a child resource was generated under. */
    public static String parentId(AwsResource child) {
        Rule rule = RULES.get(child.type());
        String key = rule.parentKey();
        return switch (key) {
            case "before/" -> child.id().substring(0, child.id().indexOf('/'));
            case "before|" -> child.id().substring(0, child.id().indexOf('|'));
            case "before-service" -> {
                // arn:aws:ecs:region:account:service/<cluster name>/<service name>: the parent's id is its ARN
                String arn = child.id();
                String cluster = arn.substring(arn.indexOf(":service/") + 9, arn.lastIndexOf('/'));
                yield arn.substring(0, arn.indexOf(":service/")) + ":cluster/" + cluster;
            }
            case "listener" -> {
                String arn = child.id().replace(":listener/", ":loadbalancer/");
                yield arn.substring(0, arn.lastIndexOf('/'));
            }
            default -> throw new IllegalStateException("unknown parent key " + key);
        };
    }

    /** One resource of a declared type; {@code parent} for child types. */
    static AwsResource make(Ids ids, AwsType t, String account, String region, int i, String zone, AwsResource parent,
                            long ordinal, Lifetime life, String env) {
        Rule rule = RULES.get(t);
        String salt = t.cfnType() + "/" + account + "/" + region + "/" + i;
        String c = t.cfnType();
        String name = t.service() + "-" + c.substring(c.lastIndexOf(':') + 1).toLowerCase(Locale.ROOT) + "-" + (i + 1) + "-"
            + ids.hex(salt, 4);
        Map<String, String> v = new HashMap<>();
        v.put("region", region);
        v.put("account", account);
        v.put("name", name);
        v.put("uuid", ids.uuid(salt));
        if (parent != null) {
            v.put("parent", parent.id());
            v.put("parentName", parent.name());
        }
        String id;
        String idRule = rule.id();
        if (idRule.startsWith("hex:")) {
            id = idRule.substring(4) + ids.hex(salt, 17);
        } else if (idRule.startsWith("lower:")) {
            id = ids.lowerAlnum(salt, Integer.parseInt(idRule.substring(6)));
        } else if (idRule.startsWith("tmpl:") || idRule.startsWith("singleton:")) {
            id = fill(ids, salt, idRule.substring(idRule.indexOf(':') + 1), v);
        } else {
            id = switch (idRule) {
                case "name" -> name;
                case "uuid" -> ids.uuid(salt);
                case "hex32" -> ids.hex(salt, 32);
                case "arn", "singleton" -> null;
                default -> throw new IllegalStateException("unknown id rule " + idRule + " of " + t);
            };
        }
        if (id != null) {
            v.put("id", id);
        }
        String arn = rule.arn().equals("LISTENER") ? parent.arn().replace(":loadbalancer/", ":listener/") + "/"
            + ids.hex(salt + "/listener", 16) : fill(ids, salt, rule.arn(), v);
        if (id == null) {
            id = arn;
        }
        return new AwsResource(t, account, region, id, name, arn,
            EPOCH.plusSeconds(ids.random("created/" + salt).nextLong(600L * 24 * 3600)), parent == null ? null : parent.vpcId(),
            null, t.placement() == AwsType.Placement.REGIONAL ? zone : null, ordinal, life, env);
    }

    private static String fill(Ids ids, String salt, String template, Map<String, String> v) {
        Matcher m = PLACEHOLDER.matcher(template);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            int n = Integer.parseInt(m.group(2));
            String s = switch (m.group(1)) {
                case "hex" -> ids.hex(salt + "/" + n, n);
                case "lower" -> ids.lowerAlnum(salt + "/" + n, n);
                default -> ids.upperAlnum(salt + "/" + n, n);
            };
            m.appendReplacement(sb, Matcher.quoteReplacement(s));
        }
        m.appendTail(sb);
        String out = sb.toString();
        for (Map.Entry<String, String> e : v.entrySet()) {
            out = out.replace("{" + e.getKey() + "}", e.getValue());
        }
        return out;
    }

    /** Types only the organization's management account holds (service control policies). */
    private static final java.util.Set<AwsType> MANAGEMENT_ONLY = java.util.EnumSet.of(AwsType.ORGANIZATIONS_POLICY);

    /** How many of {@code t} an account x region gets: the spec's count, at most one for a singleton. */
    static int count(AwsSpec spec, AwsType t) {
        return singleton(t) ? Math.min(1, spec.count(t)) : spec.count(t);
    }

    /** Whether only the organization's management account holds {@code t}. */
    static boolean managementOnly(AwsType t) {
        return MANAGEMENT_ONLY.contains(t);
    }

    /**
     * Adds the child types of one shard (an account x region, or an account's global part) to it, round-robin
     * over the parents already in {@code out} (none when the shard has no parent). Children are stable: they
     * live as long as the estate's generation.
     */
    static void children(AwsSpec spec, Ids ids, List<AwsResource> out) {
        Map<AwsType, List<AwsResource>> parents = new HashMap<>();
        for (AwsResource r : out) {
            if (r.life().stable()) {
                parents.computeIfAbsent(r.type(), k -> new ArrayList<>()).add(r);
            }
        }
        List<AwsResource> made = new ArrayList<>();
        for (Map.Entry<AwsType, Rule> e : RULES.entrySet()) {
            AwsType t = e.getKey();
            List<AwsResource> ps = e.getValue().parent() == null ? null : parents.get(e.getValue().parent());
            if (ps == null || ps.isEmpty()) {
                continue;
            }
            for (int i = 0; i < spec.count(t); i++) {
                AwsResource parent = ps.get(i % ps.size());
                made.add(make(ids, t, parent.account(), parent.region(), i, parent.zone(), parent,
                    i * AwsGenerator.SPACING, Lifetime.ALWAYS, null));
            }
        }
        out.addAll(made);
    }
}
