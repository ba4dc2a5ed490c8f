package io.cloudg.aws;

import io.cloudg.config.AwsSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Which accounts a map covers ({@code aws.organizational_units}, {@code aws.exclude_organizational_units},
 * {@code aws.exclude_accounts}): pure, from the settings and the organization's tree. Exclusions always win;
 * {@code aws.organizational_units} narrows the accounts discovered in the organization (its units and every
 * unit under them), while an account listed in {@code aws.accounts} is mapped wherever it sits unless
 * excluded.
 */
final class AccountScope {
    private final Set<String> excludedAccounts;
    private final Set<String> listed;
    private final OrgTree tree;
    private final List<OrgTree.Unit> include = new ArrayList<>();
    private final List<OrgTree.Unit> exclude = new ArrayList<>();

    /**
     * @param tree the organization's structure; null when the settings scope by no unit
     * @throws io.cloudg.resilience.config.ConfigException for a unit the organization does not have
     */
    AccountScope(AwsSettings settings, OrgTree tree) {
        this.excludedAccounts = Set.copyOf(settings.excludeAccounts());
        this.listed = Set.copyOf(settings.accounts());
        this.tree = tree;
        if (settings.scopedByUnits()) {
            if (tree == null) {
                throw new IllegalArgumentException("scoping by organizational unit needs the organization's tree");
            }
            settings.organizationalUnits().forEach(s -> include.add(tree.resolve("aws.organizational_units", s)));
            settings.excludeOrganizationalUnits().forEach(s -> exclude.add(tree.resolve("aws.exclude_organizational_units", s)));
        }
    }

    /** Why {@code account} is left out (the key that leaves it out), or null when it is mapped. */
    String exclusion(String account) {
        if (excludedAccounts.contains(account)) {
            return "aws.exclude_accounts";
        }
        for (OrgTree.Unit u : exclude) {
            if (tree.within(account, u)) {
                return "aws.exclude_organizational_units " + u.path();
            }
        }
        if (!include.isEmpty() && !listed.contains(account) && include.stream().noneMatch(u -> tree.within(account, u))) {
            String at = tree.pathOf(account);
            return "not under aws.organizational_units" + (at == null ? "" : " (in " + at + ")");
        }
        return null;
    }
}
