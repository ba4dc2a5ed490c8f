package io.cloudg.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cloudg.CloudGConfig;
import io.cloudg.map.InventoryMapper;
import io.cloudg.InventoryResult;
import io.cloudg.inventory.CoverageRecord;
import io.cloudg.inventory.SkippedAccount;
import io.cloudg.resilience.config.ConfigException;
import io.cloudg.resilience.config.RateLimitConfig;
import io.cloudg.sim.Organization;
import io.cloudg.sim.config.AwsSpec;
import io.cloudg.sim.config.EstateSpec;
import io.cloudg.sim.core.AwsType;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An organization with nested OUs, suspended accounts and per-account opt-in regions: a map over OUs,
 * excluded accounts and excluded regions equals the sim's truth restricted the same way; suspended and
 * excluded accounts are in summary.skipped_accounts and leave the map complete; each account is mapped in
 * the regions it enabled.
 */
class AwsOrganizationScopingEndToEndTest {
    static final List<String> REGIONS = List.of("us-east-1", "eu-west-1");
    static final Set<String> TYPES = Set.of("AWS::EC2::VPC", "AWS::IAM::Role", "AWS::Organizations::Account");

    @TempDir
    Path out;

    static EstateSpec estate() {
        Map<AwsType, Integer> counts = new EnumMap<>(AwsType.class);
        counts.put(AwsType.EC2_VPC, 1);
        counts.put(AwsType.IAM_ROLE, 1);
        EstateSpec e = EstateSpec.generated(12, REGIONS, counts);
        return e.withAws(e.aws().withOrganization(List.of(new AwsSpec.OuSpec("Prod/Web", 4), new AwsSpec.OuSpec("Prod/Data", 2),
                new AwsSpec.OuSpec("Dev", 2)), 3, Map.of("af-south-1", 0.5)));
    }

    static CloudGConfig.Builder config(SimHarness h, Path out) {
        return h.config(out).aws(a -> a.withCollectors(List.of("vpc", "iam_roles", "accounts"), List.of()).withSweeps(false, false));
    }

    /** The truth's assets of the collected types that {@code keep} keeps, as keys. */
    static Set<String> truth(SimHarness h, Predicate<io.cloudg.sim.estate.Asset> keep) {
        return h.sim.truth().assets().stream().filter(a -> a.provider().equals("aws") && TYPES.contains(a.type()))
                .filter(keep).map(a -> a.account() + "|" + a.region() + "|" + a.service() + "|" + a.type() + "|" + a.id())
                .collect(Collectors.toCollection(TreeSet::new));
    }

    static Map<String, String> skipped(InventoryResult r) {
        Map<String, String> out = new TreeMap<>();
        for (SkippedAccount s : r.summary().skippedAccounts()) {
            assertThat(s.provider()).isEqualTo("aws");
            assertThat(out.put(s.accountId(), s.reason())).as("listed once: " + s).isNull();
        }
        return out;
    }

    @Test
    void aWholeOrganizationSkipsItsSuspendedAccountsAndMapsEachAccountInItsOwnRegions() throws Exception {
        try (SimHarness h = new SimHarness(estate(), null)) {
            Organization org = h.sim.organization();
            assertThat(org.suspendedAccounts()).hasSize(3);
            assertThat(org.optInRegions()).containsExactly("af-south-1");
            InventoryResult r = new InventoryMapper(config(h, out).build(), SimHarness.governor(RateLimitConfig.defaults()))
                    .mapInventory();

            assertThat(SimHarness.mappedKeys(r)).isEqualTo(truth(h, a -> true));
            assertThat(r.complete()).as("skipping suspended accounts is not a gap: %s", r.coverage()).isTrue();
            Map<String, String> expectedSkipped = new TreeMap<>();
            org.suspendedAccounts().forEach(id -> expectedSkipped.put(id, SkippedAccount.SUSPENDED));
            assertThat(skipped(r)).isEqualTo(expectedSkipped);

            Map<String, Set<String>> mappedRegions = new TreeMap<>();
            for (CoverageRecord c : r.coverage()) {
                if (!c.region().equals("global") && !c.region().equals("discovery")) {
                    mappedRegions.computeIfAbsent(c.accountId(), k -> new TreeSet<>()).add(c.region());
                }
            }
            Set<String> withOptIn = new HashSet<>();
            for (Organization.Member m : org.accounts()) {
                if (m.suspended()) {
                    assertThat(mappedRegions).doesNotContainKey(m.id());
                    continue;
                }
                assertThat(mappedRegions.get(m.id())).as("the regions account %s enabled", m.id())
                        .isEqualTo(new TreeSet<>(m.regions()));
                if (m.regions().contains("af-south-1")) {
                    withOptIn.add(m.id());
                }
            }
            assertThat(withOptIn).as("some accounts enabled the opt-in region, some did not").isNotEmpty()
                    .hasSizeLessThan(org.accounts().size() - 3);
        }
    }

    @Test
    void aMapOverUnitsExcludedAccountsAndExcludedRegionsEqualsTheTruthRestrictedTheSameWay() throws Exception {
        try (SimHarness h = new SimHarness(estate(), null)) {
            Organization org = h.sim.organization();
            String excludedAccount = org.accountsUnder("Prod/Web").iterator().next();
            Set<String> scope = new TreeSet<>(org.accountsUnder("Prod"));
            scope.removeAll(org.accountsUnder("Prod/Data"));
            scope.remove(excludedAccount);
            assertThat(scope).isNotEmpty();

            CloudGConfig config = config(h, out).aws(a -> a.withOrganizationalUnits(List.of("Root/Prod"), List.of("Prod/Data"))
                    .withExclusions(List.of(excludedAccount), List.of("eu-west-1"))).build();
            InventoryResult r = new InventoryMapper(config, SimHarness.governor(RateLimitConfig.defaults())).mapInventory();

            Set<String> expected = truth(h, a -> scope.contains(a.account()) && !a.region().equals("eu-west-1"));
            assertThat(expected).anyMatch(k -> k.contains("|AWS::Organizations::Account|"))
                    .anyMatch(k -> k.contains("|AWS::EC2::VPC|")).noneMatch(k -> k.contains("|eu-west-1|"));
            assertThat(SimHarness.mappedKeys(r)).isEqualTo(expected);
            assertThat(r.complete()).isTrue();
            assertThat(r.coverage()).noneMatch(c -> c.region().equals("eu-west-1"));
            assertThat(r.coverage().stream().map(CoverageRecord::accountId).filter(id -> !id.equals(org.managementAccount())))
                    .allMatch(scope::contains);

            Map<String, String> expectedSkipped = new TreeMap<>();
            for (Organization.Member m : org.accounts()) {
                if (!scope.contains(m.id())) {
                    expectedSkipped.put(m.id(), SkippedAccount.EXCLUDED);
                } else if (m.suspended()) {
                    expectedSkipped.put(m.id(), SkippedAccount.SUSPENDED);
                }
            }
            assertThat(skipped(r)).isEqualTo(expectedSkipped);
            assertThat(r.summary().skippedAccounts()).filteredOn(s -> s.accountId().equals(excludedAccount))
                    .singleElement().extracting(SkippedAccount::detail).isEqualTo("aws.exclude_accounts");
        }
    }

    @Test
    void aUnitTheOrganizationDoesNotHaveOrUnitsWithoutTheOrganizationAreRefused() throws Exception {
        try (SimHarness h = new SimHarness(estate(), null)) {
            CloudGConfig typo = config(h, out).aws(a -> a.withOrganizationalUnits(List.of("Prod/Wbe"), List.of())).build();
            assertThatThrownBy(() -> new InventoryMapper(typo, SimHarness.governor(RateLimitConfig.defaults())).mapInventory())
                    .isInstanceOf(ConfigException.class).hasMessageContaining("aws.organizational_units entry")
                    .hasMessageContaining("Prod/Wbe").hasMessageContaining("Root/Prod/Web");
            CloudGConfig noOrg = config(h, out).aws(a -> a.withOrg(false).withOrganizationalUnits(List.of("Prod"), List.of()))
                    .build();
            assertThatThrownBy(() -> new InventoryMapper(noOrg, SimHarness.governor(RateLimitConfig.defaults())).mapInventory())
                    .isInstanceOf(ConfigException.class).hasMessageContaining("aws.organizational_units")
                    .hasMessageContaining("aws.org");
        }
    }
}
