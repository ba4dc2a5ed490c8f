package io.cloudg.sim.config;

import io.cloudg.sim.config.QuotaEntry.Provenance;
import io.cloudg.sim.quota.Limit;
import io.cloudg.sim.quota.Quota;
import io.cloudg.sim.quota.Refill;
import io.cloudg.sim.quota.WindowLimit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Quota configuration: a built-in table per {@link Realism} (see {@link #table()}: every number with its
 * source, {@code documented} or {@code guessed}) and the estate file's overrides on top. Immutable; the
 * overrides survive {@link #withRealism}, so switching profile keeps what the file said.
 *
 * <p>{@code strict} uses the providers' published limits where there are any; where a provider publishes
 * none (IAM, STS, Organizations, CloudFormation, Cloud Control, tagging, most others) it serves cloudg's own
 * built-in rate, so that a governor never finds slack the real service may not have. {@code lenient} keeps
 * the simulator's first, kinder table.
 */
public final class QuotaSpec {

    /**
     * @param limit        rate, burst and refill
     * @param perOperation whether each operation of the service has its own bucket
     */
    public record AwsServiceLimit(Limit limit, boolean perOperation) {
    }

    /** A Cloud Asset per-minute quota at (consumer or target) project and at organization level. */
    public record GcpMethodLimit(double projectPerMinute, double organizationPerMinute) {
    }

    /**
     * Pseudo-operation for EC2's resource-intensive Describe* calls made without pagination or filters
     * ({@code ec2.unpaginated} in the file): they draw on a separate, smaller bucket per action.
     */
    public static final String EC2_UNPAGINATED = "unpaginated";
    /** Pseudo-operations for S3's per-bucket request rates in {@code strict} ({@code s3.bucket_reads}). */
    public static final String S3_BUCKET_READS = "bucket_reads";
    public static final String S3_BUCKET_WRITES = "bucket_writes";

    private static final String EC2_DOC = "Amazon EC2 API Reference, \"Request throttling\" (token bucket per account"
        + " x Region x action)";
    private static final String BUILT_IN = "not published; cloudg's built-in rate (shared-limiter BuiltInRates)";
    private static final String ARM_DOC = "Azure Resource Manager, \"Understand how Azure Resource Manager throttles"
        + " requests\" (regional token bucket, 2024)";
    private static final String ASSET_DOC = "Cloud Asset Inventory, \"Quotas and limits\"";

    private record AwsRow(String key, double rate, double burst, boolean perOperation, String scope, Provenance p,
                          String source) {
    }

    private static final List<AwsRow> STRICT_AWS = List.of(
        new AwsRow("default", 20, 40, false, "account x region x service", Provenance.GUESSED, BUILT_IN),
        new AwsRow("ec2", 20, 100, true, "account x region x action", Provenance.DOCUMENTED, EC2_DOC
            + ": non-mutating actions, bucket 100, refill 20/s"),
        new AwsRow("ec2." + EC2_UNPAGINATED, 10, 50, true, "account x region x action", Provenance.DOCUMENTED, EC2_DOC
            + ": unfiltered and unpaginated non-mutating actions, bucket 50, refill 10/s"),
        new AwsRow("sts", 50, 100, false, "account x region", Provenance.GUESSED, BUILT_IN),
        new AwsRow("iam", 10, 40, false, "account", Provenance.GUESSED, BUILT_IN),
        new AwsRow("organizations", 5, 10, false, "account", Provenance.GUESSED, BUILT_IN),
        new AwsRow("lambda", 15, 15, false, "account x region", Provenance.DOCUMENTED, "AWS Lambda Developer Guide,"
            + " \"Lambda quotas\": other control plane API requests, 15 per second (burst not published: 15)"),
        new AwsRow("route53", 5, 5, false, "account", Provenance.DOCUMENTED, "Amazon Route 53 Developer Guide,"
            + " \"Quotas\": five requests per second per AWS account"),
        new AwsRow("cloudformation", 5, 10, false, "account x region", Provenance.GUESSED, BUILT_IN),
        new AwsRow("cloudcontrol", 5, 10, false, "account x region", Provenance.GUESSED, BUILT_IN),
        new AwsRow("resourcegroupstaggingapi", 5, 10, false, "account x region", Provenance.GUESSED, BUILT_IN),
        new AwsRow("s3", 20, 40, false, "account x region (ListBuckets and other calls naming no bucket)",
            Provenance.GUESSED, BUILT_IN),
        new AwsRow("s3." + S3_BUCKET_READS, 5500, 5500, false, "bucket (GET/HEAD)", Provenance.DOCUMENTED,
            "Amazon S3 User Guide, \"Best practices design patterns: optimizing Amazon S3 performance\": 5,500"
                + " GET/HEAD requests per second per partitioned prefix"),
        new AwsRow("s3." + S3_BUCKET_WRITES, 3500, 3500, false, "bucket (PUT/COPY/POST/DELETE)", Provenance.DOCUMENTED,
            "Amazon S3 User Guide, same page: 3,500 PUT/COPY/POST/DELETE requests per second per partitioned prefix"));

    private static final List<AwsRow> LENIENT_AWS = List.of(
        new AwsRow("default", 20, 50, false, "account x region x service", Provenance.GUESSED, "cloud-sim's first table"),
        STRICT_AWS.get(1), STRICT_AWS.get(2),
        new AwsRow("sts", 100, 200, false, "account x region", Provenance.GUESSED, "cloud-sim's first table (observed)"),
        new AwsRow("iam", 20, 40, false, "account", Provenance.GUESSED, "cloud-sim's first table (observed)"),
        new AwsRow("organizations", 10, 20, false, "account", Provenance.GUESSED, "cloud-sim's first table (observed)"),
        STRICT_AWS.get(6), STRICT_AWS.get(7),
        new AwsRow("cloudformation", 10, 20, false, "account x region", Provenance.GUESSED, "cloud-sim's first table"),
        new AwsRow("cloudcontrol", 10, 20, false, "account x region", Provenance.GUESSED, "cloud-sim's first table"),
        new AwsRow("resourcegroupstaggingapi", 10, 20, false, "account x region", Provenance.GUESSED,
            "cloud-sim's first table"));

    private static final Duration STRICT_ARM_RETRY_AFTER = Duration.ofSeconds(10);

    private final Realism realism;
    private final Boolean enabled;
    private final Map<String, AwsServiceLimit> aws;
    private final Refill ec2Refill;
    private final Limit armReads;
    private final Limit armGlobalReads;
    private final Duration armRetryAfter;
    private final Quota resourceGraph;
    private final Map<String, GcpMethodLimit> gcp;

    private QuotaSpec(Realism realism, Boolean enabled, Map<String, AwsServiceLimit> aws, Refill ec2Refill,
                      Limit armReads, Limit armGlobalReads, Duration armRetryAfter, Quota resourceGraph,
                      Map<String, GcpMethodLimit> gcp) {
        this.realism = realism;
        this.enabled = enabled;
        this.aws = Collections.unmodifiableMap(new LinkedHashMap<>(aws));
        this.ec2Refill = ec2Refill;
        this.armReads = armReads;
        this.armGlobalReads = armGlobalReads;
        this.armRetryAfter = armRetryAfter;
        this.resourceGraph = resourceGraph;
        this.gcp = Collections.unmodifiableMap(new LinkedHashMap<>(gcp));
    }

    /** The built-in lenient table, quotas on. */
    public static QuotaSpec defaults() {
        return defaults(Realism.LENIENT);
    }

    /** The built-in table of a profile, quotas on, nothing overridden. */
    public static QuotaSpec defaults(Realism r) {
        return new QuotaSpec(r, null, Map.of(), null, null, null, null, null, Map.of());
    }

    /** The same overrides on another profile's table. */
    public QuotaSpec withRealism(Realism r) {
        return new QuotaSpec(r, enabled, aws, ec2Refill, armReads, armGlobalReads, armRetryAfter, resourceGraph, gcp);
    }

    /** The same table with quotas switched on or off. */
    public QuotaSpec withEnforcing(boolean on) {
        return new QuotaSpec(realism, on, aws, ec2Refill, armReads, armGlobalReads, armRetryAfter, resourceGraph, gcp);
    }

    public Realism realism() {
        return realism;
    }

    /** False: count calls but never throttle ({@code quotas.enabled: false}). */
    public boolean enforcing() {
        return enabled == null || enabled;
    }

    private List<AwsRow> awsRows() {
        return realism.strict() ? STRICT_AWS : LENIENT_AWS;
    }

    private AwsRow row(String key) {
        for (AwsRow r : awsRows()) {
            if (r.key.equals(key)) {
                return r;
            }
        }
        return null;
    }

    private AwsServiceLimit entry(String key) {
        AwsServiceLimit o = aws.get(key);
        if (o != null) {
            return o;
        }
        AwsRow r = row(key);
        return r == null ? null : new AwsServiceLimit(new Limit(r.rate, r.burst), r.perOperation);
    }

    /** The AWS entry for {@code service.operation}, else {@code service}, else the default. */
    public AwsServiceLimit awsLimit(String service, String operation) {
        AwsServiceLimit l = entry(service + "." + operation);
        if (l == null) {
            l = entry(service);
        }
        if (l == null) {
            l = new AwsServiceLimit(entry("default").limit(), false);
        }
        if (service.equals("ec2") && ec2Refill != null) {
            l = new AwsServiceLimit(l.limit().withRefill(ec2Refill), l.perOperation());
        }
        return l;
    }

    /** The limit of AWS services without an entry of their own. */
    public Limit awsDefault() {
        return entry("default").limit();
    }

    /** Whether {@code service.operation} has an entry of its own (then it has a bucket of its own). */
    public boolean hasOperationEntry(String service, String operation) {
        return aws.containsKey(service + "." + operation) || row(service + "." + operation) != null;
    }

    /** Azure ARM reads per subscription (or tenant) x principal. */
    public Limit armReads() {
        return armReads != null ? armReads : new Limit(25, 250);
    }

    /** Azure ARM reads per subscription across principals; null when there is no such limit (lenient). */
    public Limit armGlobalReads() {
        return armGlobalReads != null ? armGlobalReads : realism.strict() ? new Limit(375, 3750) : null;
    }

    /** The {@code Retry-After} ARM answers a throttled read with; null: the bucket's exact wait (lenient). */
    public Duration armRetryAfter() {
        return armRetryAfter != null ? armRetryAfter : realism.strict() ? STRICT_ARM_RETRY_AFTER : null;
    }

    /** Resource Graph queries per principal: a 5-second window in strict, a bucket in lenient. */
    public Quota resourceGraph() {
        if (resourceGraph != null) {
            return resourceGraph;
        }
        return realism.strict() ? WindowLimit.of(15, Duration.ofSeconds(5), WindowLimit.Alignment.FIRST_CALL)
            : new Limit(3, 15);
    }

    /** A Cloud Asset method's per-minute quotas. */
    public GcpMethodLimit gcp(String method) {
        GcpMethodLimit o = gcp.get(method);
        if (o != null) {
            return o;
        }
        return switch (method) {
            case "SearchAllResources" -> new GcpMethodLimit(400, 1500);
            default -> new GcpMethodLimit(100, 800);
        };
    }

    /** A per-minute Cloud Asset quota as the profile models it: a clock-aligned minute (strict) or a bucket. */
    public Quota perMinute(double calls) {
        if (realism.strict()) {
            return WindowLimit.of((int) Math.max(1, Math.floor(calls)), Duration.ofMinutes(1), WindowLimit.Alignment.CLOCK);
        }
        return Limit.perMinute(calls);
    }

    /** Every limit in effect, with its source, in a stable order. */
    public List<QuotaEntry> table() {
        List<QuotaEntry> out = new ArrayList<>();
        List<String> keys = new ArrayList<>();
        awsRows().forEach(r -> keys.add(r.key));
        aws.keySet().stream().filter(k -> !keys.contains(k)).sorted().forEach(keys::add);
        for (String k : keys) {
            AwsRow r = row(k);
            AwsServiceLimit l = k.equals("default") ? new AwsServiceLimit(entry("default").limit(), false)
                : k.contains(".") ? awsLimit(k.substring(0, k.indexOf('.')), k.substring(k.indexOf('.') + 1))
                : awsLimit(k, "");
            out.add(new QuotaEntry("aws", k, r != null ? r.scope : l.perOperation() ? "account x region x action"
                : "account x region x service", l.limit(), r != null ? r.p : Provenance.GUESSED,
                r != null ? r.source : "estate file", aws.containsKey(k) || (k.startsWith("ec2") && ec2Refill != null)));
        }
        out.add(new QuotaEntry("azure", "arm_reads", "subscription (or tenant) x principal", armReads(),
            Provenance.DOCUMENTED, ARM_DOC + ": reads, bucket 250, refill 25/s", armReads != null));
        if (armGlobalReads() != null) {
            out.add(new QuotaEntry("azure", "arm_global_reads", "subscription, all principals", armGlobalReads(),
                Provenance.DOCUMENTED, ARM_DOC + ": a global subscription limit 15 times the per-principal one",
                armGlobalReads != null));
        }
        out.add(new QuotaEntry("azure", "resource_graph", "principal (user)", resourceGraph(), Provenance.DOCUMENTED,
            "Azure Resource Graph, \"Guidance for throttled requests\": 15 queries per 5-second window per user",
            resourceGraph != null));
        for (String method : List.of("ListAssets", "SearchAllResources")) {
            GcpMethodLimit m = gcp(method);
            out.add(new QuotaEntry("gcp", method + ".project", realism.strict() ? "consumer (calling) project"
                : "target project", perMinute(m.projectPerMinute()), Provenance.DOCUMENTED, ASSET_DOC + ": "
                + method + " per minute per consumer project", gcp.containsKey(method)));
            out.add(new QuotaEntry("gcp", method + ".organization", "organization", perMinute(m.organizationPerMinute()),
                Provenance.DOCUMENTED, ASSET_DOC + ": " + method + " per minute per organization", gcp.containsKey(method)));
        }
        return List.copyOf(out);
    }

    static QuotaSpec read(SpecNode n, Realism realism) {
        QuotaSpec d = defaults(realism);
        if (!n.present()) {
            return d;
        }
        n.onlyKeys("enabled", "aws", "azure", "gcp");
        SpecNode awsNode = n.get("aws").onlyKeys("default", "services", "ec2_refill");
        Map<String, AwsServiceLimit> aws = new LinkedHashMap<>();
        SpecNode dflt = awsNode.get("default").onlyKeys("rate", "burst");
        Limit awsDefault = readLimit(dflt, d.entry("default").limit());
        if (dflt.present()) {
            aws.put("default", new AwsServiceLimit(awsDefault, false));
        }
        for (Map.Entry<String, SpecNode> e : awsNode.get("services").entries().entrySet()) {
            String key = e.getKey();
            SpecNode v = e.getValue();
            if (!key.matches("[a-z0-9]+(\\.[A-Za-z0-9_]+)?")) {
                throw v.error("expected a service name (ec2) or service.Operation (ec2.DescribeImages)");
            }
            v.onlyKeys("rate", "burst", "per_operation");
            AwsServiceLimit base = d.entry(key);
            Limit baseLimit = base != null ? base.limit() : awsDefault;
            aws.put(key, new AwsServiceLimit(readLimit(v, baseLimit),
                v.get("per_operation").bool(base != null && base.perOperation())));
        }
        Refill refill = null;
        String r = awsNode.get("ec2_refill").string(null);
        if (r != null) {
            refill = switch (r) {
                case "continuous" -> Refill.CONTINUOUS;
                case "whole_second" -> Refill.WHOLE_SECOND;
                default -> throw awsNode.get("ec2_refill").error("expected continuous or whole_second, got \"" + r + "\"");
            };
        }
        SpecNode az = n.get("azure").onlyKeys("arm_reads", "arm_global_reads", "arm_retry_after", "resource_graph");
        SpecNode armNode = az.get("arm_reads").onlyKeys("rate", "burst");
        Limit arm = armNode.present() ? readLimit(armNode, d.armReads()) : null;
        SpecNode globalNode = az.get("arm_global_reads").onlyKeys("rate", "burst");
        Limit global = globalNode.present() ? readLimit(globalNode, d.armGlobalReads() != null ? d.armGlobalReads()
            : new Limit(375, 3750)) : null;
        Duration retryAfter = Durations.read(az.get("arm_retry_after"), null);
        if (retryAfter != null && retryAfter.toMillis() < 1000) {
            throw az.get("arm_retry_after").error("expected at least 1s (Retry-After is whole seconds), got "
                + az.get("arm_retry_after").describe());
        }
        Quota graph = readGraph(az.get("resource_graph"), d.resourceGraph());
        SpecNode g = n.get("gcp").onlyKeys("ListAssets", "SearchAllResources");
        Map<String, GcpMethodLimit> gcp = new LinkedHashMap<>();
        for (Map.Entry<String, SpecNode> e : g.entries().entrySet()) {
            SpecNode v = e.getValue().onlyKeys("project_per_minute", "organization_per_minute");
            GcpMethodLimit base = d.gcp(e.getKey());
            gcp.put(e.getKey(), new GcpMethodLimit(v.get("project_per_minute").positiveNumber(base.projectPerMinute()),
                v.get("organization_per_minute").positiveNumber(base.organizationPerMinute())));
        }
        Boolean enabled = n.get("enabled").present() ? n.get("enabled").bool(true) : null;
        return new QuotaSpec(realism, enabled, aws, refill, arm, global, retryAfter, graph, gcp);
    }

    /** {@code {rate, burst}} (a bucket) or {@code {calls, window}} (a fixed window starting at the first call). */
    private static Quota readGraph(SpecNode n, Quota dflt) {
        if (!n.present()) {
            return null;
        }
        n.onlyKeys("rate", "burst", "calls", "window");
        boolean bucket = n.get("rate").present() || n.get("burst").present();
        boolean window = n.get("calls").present() || n.get("window").present();
        if (bucket && window) {
            throw n.error("either {rate, burst} (a token bucket) or {calls, window} (a fixed window), not both");
        }
        if (window) {
            WindowLimit w = dflt instanceof WindowLimit dw ? dw
                : WindowLimit.of(15, Duration.ofSeconds(5), WindowLimit.Alignment.FIRST_CALL);
            Duration len = Durations.read(n.get("window"), Duration.ofNanos(w.windowNanos()));
            if (len.isZero()) {
                throw n.get("window").error("expected a positive duration, got " + n.get("window").describe());
            }
            return WindowLimit.of(n.get("calls").positiveInt(w.calls()), len, WindowLimit.Alignment.FIRST_CALL);
        }
        return readLimit(n, dflt instanceof Limit l ? l : new Limit(3, 15));
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
