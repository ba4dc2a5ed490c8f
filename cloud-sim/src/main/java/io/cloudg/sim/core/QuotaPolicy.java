package io.cloudg.sim.core;

import io.cloudg.sim.config.QuotaSpec;
import io.cloudg.sim.quota.BucketRef;
import io.cloudg.sim.quota.Limit;

/**
 * Where each provider charges a call, in that provider's own granularity. Key formats:
 * <ul>
 *   <li>AWS: {@code aws/ACCOUNT/REGION/SERVICE} or, for per-operation services such as EC2,
 *       {@code aws/ACCOUNT/REGION/SERVICE/OPERATION} ({@code REGION} is {@code global} for global
 *       services);</li>
 *   <li>Azure ARM reads: {@code azure/SUBSCRIPTION/PRINCIPAL/reads}; Resource Graph:
 *       {@code azure/PRINCIPAL/resourcegraph};</li>
 *   <li>GCP Cloud Asset: {@code gcp/projects/ID/cloudasset/METHOD} or
 *       {@code gcp/organizations/N/cloudasset/METHOD}.</li>
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

    public BucketRef aws(String account, String region, String service, String operation) {
        QuotaSpec.AwsServiceLimit l = spec.awsLimit(service, operation);
        boolean ownOperationEntry = spec.aws().containsKey(service + "." + operation);
        String key = "aws/" + account + "/" + region + "/" + service;
        if (l.perOperation() || ownOperationEntry) {
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

    public BucketRef armRead(String subscription, String principal) {
        return new BucketRef("azure/" + subscription + "/" + principal + "/reads", spec.armReads());
    }

    public BucketRef resourceGraph(String principal) {
        return new BucketRef("azure/" + principal + "/resourcegraph", spec.resourceGraph());
    }

    /**
     * @param parent {@code projects/ID} or {@code organizations/N}
     */
    public BucketRef cloudAsset(String parent, String method) {
        QuotaSpec.GcpMethodLimit m = spec.gcp().get(method);
        if (m == null) {
            m = new QuotaSpec.GcpMethodLimit(100, 800);
        }
        double perMinute = parent.startsWith("organizations/") ? m.organizationPerMinute() : m.projectPerMinute();
        return new BucketRef("gcp/" + parent + "/cloudasset/" + method, Limit.perMinute(perMinute));
    }
}
