package io.cloudg.sim.estate;

import io.cloudg.sim.core.AwsType;
import java.time.Instant;

/**
 * One AWS resource.
 *
 * @param type     what it is
 * @param account  owning account
 * @param region   where it lives ({@code global} for global types)
 * @param id       identifier as the listing API returns it (see {@link AwsType})
 * @param name     its name (Name tag, resource name)
 * @param arn      its ARN
 * @param created  creation time
 * @param vpcId    containing VPC, for VPC-scoped EC2 types (else null)
 * @param subnetId containing subnet, for subnet-scoped EC2 types (else null)
 * @param zone     availability zone, where it has one (else null)
 * @param ordinal  its place in its listing (listings return resources in ordinal order; page cursors are
 *                 ordinals, so resources created or deleted between two pages never shift the others)
 * @param life     when it exists ({@link Lifetime#ALWAYS} unless it churns while a map runs)
 * @param env      its {@code env} tag, set by the estate generation that last modified it; null if none
 */
public record AwsResource(AwsType type, String account, String region, String id, String name, String arn,
                          Instant created, String vpcId, String subnetId, String zone, long ordinal, Lifetime life,
                          String env) {

    /** Whether it exists {@code elapsedNanos} after the simulator started. */
    public boolean existsAt(long elapsedNanos) {
        return life.existsAt(elapsedNanos);
    }
}
