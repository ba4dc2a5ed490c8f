package io.cloudg.sim;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.cloudg.sim.estate.AwsAccount;
import io.cloudg.sim.estate.AwsEstate;
import io.cloudg.sim.estate.AwsOrgUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The AWS organization's structure as ground truth: its root and organizational units, and where each account
 * sits, its status and its enabled regions. Served as the {@code organization} field of {@code GET /_sim/truth}.
 *
 * @param id                the organization id {@code o-...}
 * @param managementAccount the management account id
 * @param rootId            the root's id {@code r-...}
 * @param units             the root and every organizational unit, parents before children
 * @param accounts          every account, management first
 * @param regions           every region of the organization: those enabled everywhere, then the opt-in ones
 * @param optInRegions      the regions only some accounts enabled
 */
@JsonPropertyOrder({"id", "management_account", "root_id", "organizational_units", "accounts", "regions",
    "opt_in_regions"})
public record Organization(@JsonProperty("id") String id, @JsonProperty("management_account") String managementAccount,
                           @JsonProperty("root_id") String rootId,
                           @JsonProperty("organizational_units") List<Unit> units,
                           @JsonProperty("accounts") List<Member> accounts,
                           @JsonProperty("regions") List<String> regions,
                           @JsonProperty("opt_in_regions") List<String> optInRegions) {

    public Organization {
        units = List.copyOf(units);
        accounts = List.copyOf(accounts);
        regions = List.copyOf(regions);
        optInRegions = List.copyOf(optInRegions);
    }

    /**
     * The root or an organizational unit.
     *
     * @param path     {@code Root} or {@code Root/Prod/Web}
     * @param parentId null for the root
     */
    @JsonPropertyOrder({"id", "name", "path", "parent_id"})
    public record Unit(@JsonProperty("id") String id, @JsonProperty("name") String name, @JsonProperty("path") String path,
                       @JsonProperty("parent_id") String parentId) {
    }

    /**
     * One account.
     *
     * @param status   {@code ACTIVE} or {@code SUSPENDED}
     * @param parentId the root or unit it sits in directly
     * @param path     that parent's path ({@code Root/Prod/Web})
     * @param regions  its enabled regions (a suspended account's too, though it lists nothing)
     */
    @JsonPropertyOrder({"id", "name", "status", "parent_id", "path", "regions"})
    public record Member(@JsonProperty("id") String id, @JsonProperty("name") String name,
                         @JsonProperty("status") String status, @JsonProperty("parent_id") String parentId,
                         @JsonProperty("path") String path, @JsonProperty("regions") List<String> regions) {
        public Member {
            regions = List.copyOf(regions);
        }

        public boolean suspended() {
            return AwsAccount.SUSPENDED.equals(status);
        }
    }

    static Organization of(AwsEstate aws) {
        List<Unit> units = new ArrayList<>();
        for (AwsOrgUnit u : aws.units()) {
            units.add(new Unit(u.id(), u.name(), u.path(), u.parentId()));
        }
        List<Member> members = new ArrayList<>();
        for (AwsAccount a : aws.accounts()) {
            members.add(new Member(a.id(), a.name(), a.status(), a.parentId(), aws.unit(a.parentId()).path(), a.regions()));
        }
        return new Organization(aws.organizationId(), aws.management().id(), aws.root().id(), units, members,
            aws.regions(), aws.regions().stream().filter(aws::optInRegion).toList());
    }

    /** The accounts in the unit at {@code path} or anywhere under it ({@code Root}: all of them). */
    public Set<String> accountsUnder(String path) {
        String p = path.startsWith("Root") ? path : "Root/" + path;
        return accounts.stream().filter(m -> m.path().equals(p) || m.path().startsWith(p + "/")).map(Member::id)
            .collect(Collectors.toCollection(java.util.LinkedHashSet::new));
    }

    /** The ids of the suspended accounts. */
    public Set<String> suspendedAccounts() {
        return accounts.stream().filter(Member::suspended).map(Member::id)
            .collect(Collectors.toCollection(java.util.LinkedHashSet::new));
    }

    /** An account's enabled regions; empty for an account the organization does not have. */
    public List<String> regionsOf(String account) {
        return accounts.stream().filter(m -> m.id().equals(account)).findFirst().map(Member::regions).orElse(List.of());
    }

    /** The unit (or root) at {@code path}; null if none. */
    public Unit unit(String path) {
        String p = path.startsWith("Root") ? path : "Root/" + path;
        return units.stream().filter(u -> u.path().equals(p)).findFirst().orElse(null);
    }
}
