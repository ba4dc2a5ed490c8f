package io.cloudg.sim.gate;

import io.cloudg.sim.config.QuotaSpec;
import io.cloudg.sim.config.Realism;
import io.cloudg.sim.quota.BucketRef;
import io.cloudg.sim.quota.Limit;
import java.util.List;

/**
 * Where each provider charges a call, in that provider's own granularity. Key formats:
 * <ul>
 *   <li>AWS: {@code aws/ACCOUNT/REGION/SERVICE} or, for per-operation services such as EC2,
 *       {@code aws/ACCOUNT/REGION/SERVICE/OPERATION} ({@code REGION} is {@code global} for global
 *       services); strict S3 per bucket: {@code aws/s3/BUCKET/bucket_reads} (or {@code bucket_writes});</li>
 *   <li>Azure ARM reads: {@code azure/SUBSCRIPTION/PRINCIPAL/reads} and, in strict, also the
 *       subscription-wide {@code azure/SUBSCRIPTION/reads}; Resource Graph: {@code azure/PRINCIPAL/resourcegraph};</li>
 *   <li>GCP Cloud Asset, lenient: {@code gcp/projects/ID/cloudasset/METHOD} (the target project) or
 *       {@code gcp/organizations/N/cloudasset/METHOD}; strict: {@code gcp/projects/CONSUMER/cloudasset/METHOD}
 *       (the consumer project) and {@code gcp/organizations/N/cloudasset/METHOD} (the target's organization),
 *       both charged.</li>
 * </ul>
 */
public final class QuotaPolicy {
    private final QuotaSpec spec;

    public QuotaPolicy(QuotaSpec spec) {
        this.spec = spec;
    }

    public QuotaSpec spec() {
        return spec;
    }

    public Realism realism() {
        return spec.realism();
    }

    public BucketRef aws(String account, String region, String service, String operation) {
        QuotaSpec.AwsServiceLimit l = spec.awsLimit(service, operation);
        String key = "aws/" + account + "/" + region + "/" + service;
        if (l.perOperation() || spec.hasOperationEntry(service, operation)) {
            key += "/" + operation;
        }
        return new BucketRef(key, l.limit());
    }

    /**
     * An EC2 resource-intensive Describe* call made without pagination or filters: its own bucket,
     * {@code aws/ACCOUNT/REGION/ec2/ACTION/unpaginated}, with the {@code ec2.unpaginated} limit.
     */
    public BucketRef ec2Unpaginated(String account, String region, String operation) {
        QuotaSpec.AwsServiceLimit l = spec.awsLimit("ec2", QuotaSpec.EC2_UNPAGINATED);
        return new BucketRef("aws/" + account + "/" + region + "/ec2/" + operation + "/" + QuotaSpec.EC2_UNPAGINATED,
            l.limit());
    }

    /** A strict S3 call addressing one bucket: the bucket's read or write rate, whoever calls. */
    public BucketRef s3Bucket(String bucket, boolean write) {
        String op = write ? QuotaSpec.S3_BUCKET_WRITES : QuotaSpec.S3_BUCKET_READS;
        return new BucketRef("aws/s3/" + bucket + "/" + op, spec.awsLimit("s3", op).limit());
    }

    public BucketRef armRead(String subscription, String principal) {
        return new BucketRef("azure/" + subscription + "/" + principal + "/reads", spec.armReads());
    }

    /** Every bucket an ARM read is charged to: the principal's, and the subscription-wide one where there is one. */
    public List<BucketRef> armReads(String subscription, String principal, boolean tenantLevel) {
        Limit global = spec.armGlobalReads();
        if (global == null || tenantLevel) {
            return List.of(armRead(subscription, principal));
        }
        return List.of(armRead(subscription, principal), new BucketRef("azure/" + subscription + "/reads", global));
    }

    public BucketRef resourceGraph(String principal) {
        return new BucketRef("azure/" + principal + "/resourcegraph", spec.resourceGraph());
    }

    /**
     * Lenient: the target's own bucket.
     *
     * @param parent {@code projects/ID} or {@code organizations/N}
     */
    public BucketRef cloudAsset(String parent, String method) {
        QuotaSpec.GcpMethodLimit m = spec.gcp(method);
        boolean org = parent.startsWith("organizations/");
        return new BucketRef("gcp/" + parent + "/cloudasset/" + method,
            spec.perMinute(org ? m.organizationPerMinute() : m.projectPerMinute()), limitName(method, org));
    }

    /**
     * Strict: the consumer project's bucket and the organization's, both charged.
     *
     * @param consumerProject the calling project's id
     * @param organization    the organization number of the target
     */
    public List<BucketRef> cloudAssetStrict(String consumerProject, String organization, String method) {
        QuotaSpec.GcpMethodLimit m = spec.gcp(method);
        return List.of(
            new BucketRef("gcp/projects/" + consumerProject + "/cloudasset/" + method, spec.perMinute(m.projectPerMinute()),
                limitName(method, false)),
            new BucketRef("gcp/organizations/" + organization + "/cloudasset/" + method,
                spec.perMinute(m.organizationPerMinute()), limitName(method, true)));
    }

    /** Cloud Asset's name for a limit, as its quota errors quote it. */
    static String limitName(String method, boolean organization) {
        return method + "RequestsPerMinutePer" + (organization ? "Organization" : "Project");
    }
}
