package io.cloudg.sim.core;

import java.util.Objects;

/**
 * One API call as quotas and fault rules see it.
 *
 * @param provider  which cloud
 * @param account   AWS account id, Azure subscription id (or tenant for tenant-level calls), GCP
 *                  {@code projects/ID} or {@code organizations/N}
 * @param region    AWS region ({@code global} for global services), Azure/GCP location or {@code global}
 * @param service   service id (AWS: {@code ec2}, {@code iam}, ...; Azure: {@code arm},
 *                  {@code resourcegraph}; GCP: {@code cloudasset})
 * @param operation the API action ({@code DescribeSubnets}, {@code ListAssets}, ...)
 */
public record CallScope(Provider provider, String account, String region, String service, String operation) {
    public CallScope {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(account, "account");
        Objects.requireNonNull(region, "region");
        Objects.requireNonNull(service, "service");
        Objects.requireNonNull(operation, "operation");
    }

    @Override
    public String toString() {
        return provider.id() + "/" + account + "/" + region + "/" + service + "/" + operation;
    }
}
