package io.cloudg.sim.config;

import io.cloudg.sim.quota.Limit;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Quota configuration, by default the providers' documented (or commonly observed) numbers.
 *
 * <table>
 * <caption>Built-in limits</caption>
 * <tr><th>scope</th><th>rate/s</th><th>burst</th><th>source</th></tr>
 * <tr><td>AWS EC2, per account x region x action</td><td>20</td><td>100</td><td>EC2 API throttling docs,
 * non-mutating actions</td></tr>
 * <tr><td>AWS EC2 DescribeInstances, Volumes, Snapshots, SecurityGroups, NetworkInterfaces, Images without
 * pagination or filters, per account x region x action</td><td>10</td><td>50</td><td>EC2 API throttling docs
 * (unpaginated/unfiltered calls)</td></tr>
 * <tr><td>AWS STS, per account x region</td><td>100</td><td>200</td><td>observed</td></tr>
 * <tr><td>AWS IAM, per account</td><td>20</td><td>40</td><td>observed</td></tr>
 * <tr><td>AWS Organizations, per account</td><td>10</td><td>20</td><td>observed</td></tr>
 * <tr><td>AWS Lambda control plane, per account x region</td><td>15</td><td>15</td><td>Lambda quotas</td></tr>
 * <tr><td>AWS Route 53, per account</td><td>5</td><td>5</td><td>Route 53 quotas (5 req/s)</td></tr>
 * <tr><td>AWS CloudFormation, Cloud Control, tagging, per account x region</td><td>10</td><td>20</td>
 * <td>observed</td></tr>
 * <tr><td>any other AWS service, per account x region x service</td><td>20</td><td>50</td><td>observed</td></tr>
 * <tr><td>Azure ARM reads, per subscription x principal</td><td>25</td><td>250</td><td>ARM throttling docs
 * (token bucket 250, refill 25/s)</td></tr>
 * <tr><td>Azure Resource Graph, per principal</td><td>3</td><td>15</td><td>15 queries per 5 s</td></tr>
 * <tr><td>Cloud Asset ListAssets</td><td colspan="2">100/min per project, 800/min per organization</td>
 * <td>Cloud Asset quotas</td></tr>
 * <tr><td>Cloud Asset SearchAllResources</td><td colspan="2">400/min per project, 1,500/min per
 * organization</td><td>Cloud Asset quotas</td></tr>
 * </table>
 *
 * @param enforcing  false: count calls but never throttle ({@code quotas.enabled: false})
 * @param awsDefault limit of an AWS service without its own entry
 * @param aws        per-service ({@code ec2}) and per-operation ({@code ec2.DescribeImages}) entries
 * @param armReads   Azure ARM reads
 * @param resourceGraph Azure Resource Graph queries
 * @param gcp        Cloud Asset methods ({@code ListAssets}, {@code SearchAllResources})
 */
public record QuotaSpec(boolean enforcing, Limit awsDefault, Map<String, AwsServiceLimit> aws, Limit armReads,
                        Limit resourceGraph, Map<String, GcpMethodLimit> gcp) {

    /**
     * @param limit        rate and burst
     * @param perOperation whether each operation of the service has its own bucket
     */
    public record AwsServiceLimit(Limit limit, boolean perOperation) {
    }

    /**
     * Pseudo-operation for EC2's resource-intensive Describe* calls made without pagination or filters
     * ({@code ec2.unpaginated} in the file): they draw on a separate, smaller bucket per action.
     */
    public static final String EC2_UNPAGINATED = "unpaginated";

    /** A Cloud Asset per-minute quota at project and at organization level. */
    public record GcpMethodLimit(double projectPerMinute, double organizationPerMinute) {
    }

    public QuotaSpec {
        aws = Map.copyOf(aws);
        gcp = Map.copyOf(gcp);
    }

    public static QuotaSpec defaults() {
        Map<String, AwsServiceLimit> aws = new LinkedHashMap<>();
        aws.put("ec2", new AwsServiceLimit(new Limit(20, 100), true));
        aws.put("ec2." + EC2_UNPAGINATED, new AwsServiceLimit(new Limit(10, 50), true));
        aws.put("sts", new AwsServiceLimit(new Limit(100, 200), false));
        aws.put("iam", new AwsServiceLimit(new Limit(20, 40), false));
        aws.put("organizations", new AwsServiceLimit(new Limit(10, 20), false));
        aws.put("lambda", new AwsServiceLimit(new Limit(15, 15), false));
        aws.put("route53", new AwsServiceLimit(new Limit(5, 5), false));
        aws.put("cloudformation", new AwsServiceLimit(new Limit(10, 20), false));
        aws.put("cloudcontrol", new AwsServiceLimit(new Limit(10, 20), false));
        aws.put("resourcegroupstaggingapi", new AwsServiceLimit(new Limit(10, 20), false));
        Map<String, GcpMethodLimit> gcp = new LinkedHashMap<>();
        gcp.put("ListAssets", new GcpMethodLimit(100, 800));
        gcp.put("SearchAllResources", new GcpMethodLimit(400, 1500));
        return new QuotaSpec(true, new Limit(20, 50), aws, new Limit(25, 250), new Limit(3, 15), gcp);
    }

    /** The AWS entry for {@code service.operation}, else {@code service}, else the default. */
    public AwsServiceLimit awsLimit(String service, String operation) {
        AwsServiceLimit op = aws.get(service + "." + operation);
        if (op != null) {
            return op;
        }
        AwsServiceLimit svc = aws.get(service);
        return svc != null ? svc : new AwsServiceLimit(awsDefault, false);
    }

    static QuotaSpec read(SpecNode n) {
        QuotaSpec d = defaults();
        if (!n.present()) {
            return d;
        }
        n.onlyKeys("enabled", "aws", "azure", "gcp");
        SpecNode awsNode = n.get("aws").onlyKeys("default", "services");
        Limit awsDefault = readLimit(awsNode.get("default").onlyKeys("rate", "burst"), d.awsDefault);
        Map<String, AwsServiceLimit> aws = new LinkedHashMap<>(d.aws);
        for (Map.Entry<String, SpecNode> e : awsNode.get("services").entries().entrySet()) {
            String key = e.getKey();
            SpecNode v = e.getValue();
            if (!key.matches("[a-z0-9]+(\\.[A-Za-z0-9]+)?")) {
                throw v.error("expected a service name (ec2) or service.Operation (ec2.DescribeImages)");
            }
            v.onlyKeys("rate", "burst", "per_operation");
            AwsServiceLimit base = key.contains(".") ? null : d.aws.get(key);
            Limit baseLimit = base != null ? base.limit() : awsDefault;
            aws.put(key, new AwsServiceLimit(readLimit(v, baseLimit),
                v.get("per_operation").bool(base != null && base.perOperation())));
        }
        SpecNode az = n.get("azure").onlyKeys("arm_reads", "resource_graph");
        SpecNode g = n.get("gcp").onlyKeys("ListAssets", "SearchAllResources");
        Map<String, GcpMethodLimit> gcp = new LinkedHashMap<>(d.gcp);
        for (Map.Entry<String, SpecNode> e : g.entries().entrySet()) {
            SpecNode v = e.getValue().onlyKeys("project_per_minute", "organization_per_minute");
            GcpMethodLimit base = d.gcp.get(e.getKey());
            gcp.put(e.getKey(), new GcpMethodLimit(v.get("project_per_minute").positiveNumber(base.projectPerMinute()),
                v.get("organization_per_minute").positiveNumber(base.organizationPerMinute())));
        }
        return new QuotaSpec(n.get("enabled").bool(true), awsDefault, aws,
            readLimit(az.get("arm_reads").onlyKeys("rate", "burst"), d.armReads),
            readLimit(az.get("resource_graph").onlyKeys("rate", "burst"), d.resourceGraph), gcp);
    }

    private static Limit readLimit(SpecNode n, Limit base) {
        if (!n.present()) {
            return base;
        }
        double rate = n.get("rate").positiveNumber(base.rate());
        double burst = n.get("burst").positiveNumber(base.burst());
        if (burst < 1) {
            throw n.get("burst").error("expected a number of at least 1, got " + n.get("burst").describe());
        }
        return new Limit(rate, burst);
    }
}
