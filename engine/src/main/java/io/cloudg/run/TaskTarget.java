package io.cloudg.run;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A collection task as data, the part of a plan that can travel to another process: which provider,
 * account (subscription, project) and region, which collectors, and the few facts discovery learned that
 * re-planning needs (for AWS the management account, so that a member account's role is assumed from it).
 * A fleet worker turns it back into a {@link io.cloudg.collect.CollectionTask} with its own clients and
 * its own credentials ({@link io.cloudg.aws.AwsProvider#taskFor}). It never holds a credential.
 *
 * @param provider aws, azure or gcp
 * @param accountId the account, subscription or project
 * @param region the region, or {@code global}
 * @param collectors the collector (coverage entry) names to run, in order
 * @param discovery facts from discovery, such as {@code management_account}; never secrets
 */
public record TaskTarget(String provider, String accountId, String region, List<String> collectors,
                         Map<String, String> discovery) {

    /** The AWS management account the member roles are assumed from. */
    public static final String MANAGEMENT_ACCOUNT = "management_account";

    public TaskTarget {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(accountId, "accountId");
        Objects.requireNonNull(region, "region");
        collectors = List.copyOf(collectors);
        discovery = discovery == null ? Map.of() : java.util.Collections.unmodifiableMap(new TreeMap<>(discovery));
    }

    /** The id of the coverage record this target contributes to: {@code aws/123456789012/us-east-1}. */
    public String recordId() {
        return provider + "/" + accountId + "/" + region;
    }
}
