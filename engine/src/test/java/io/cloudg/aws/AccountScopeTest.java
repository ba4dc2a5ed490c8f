package io.cloudg.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cloudg.config.AwsSettings;
import io.cloudg.resilience.config.ConfigException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which accounts a map covers, from the organization's tree and the settings (pure). */
class AccountScopeTest {
    // Root
    //  ├─ Prod ─┬─ Web   (A1, A2)
    //  │        └─ Data  (A3)
    //  ├─ Dev            (A4)
    //  └─ (directly)     (M, A5)
    static final OrgTree TREE = new OrgTree(Map.of(
            "r-ab12", new OrgTree.Unit("r-ab12", "Root", null),
            "ou-ab12-prod0000", new OrgTree.Unit("ou-ab12-prod0000", "Root/Prod", "r-ab12"),
            "ou-ab12-web00000", new OrgTree.Unit("ou-ab12-web00000", "Root/Prod/Web", "ou-ab12-prod0000"),
            "ou-ab12-data0000", new OrgTree.Unit("ou-ab12-data0000", "Root/Prod/Data", "ou-ab12-prod0000"),
            "ou-ab12-dev00000", new OrgTree.Unit("ou-ab12-dev00000", "Root/Dev", "r-ab12")),
            Map.of("000000000001", "ou-ab12-web00000", "000000000002", "ou-ab12-web00000",
                    "000000000003", "ou-ab12-data0000", "000000000004", "ou-ab12-dev00000",
                    "000000000000", "r-ab12", "000000000005", "r-ab12"));
    static final List<String> ALL = List.of("000000000000", "000000000001", "000000000002", "000000000003",
            "000000000004", "000000000005");

    static List<String> mapped(AwsSettings s) {
        AccountScope scope = new AccountScope(s, s.scopedByUnits() ? TREE : null);
        return ALL.stream().filter(a -> scope.exclusion(a) == null).toList();
    }

    @Test
    void unitsIncludeEveryUnitUnderThem() {
        AwsSettings s = AwsSettings.DEFAULTS.withOrg(true).withOrganizationalUnits(List.of("Prod"), List.of());
        assertThat(mapped(s)).containsExactly("000000000001", "000000000002", "000000000003");
        AccountScope scope = new AccountScope(s, TREE);
        assertThat(scope.exclusion("000000000004")).isEqualTo("not under aws.organizational_units (in Root/Dev)");
    }

    @Test
    void unitsAreNamedByIdOrByPathFromTheRootOrBelowIt() {
        for (String name : List.of("ou-ab12-web00000", "Root/Prod/Web", "Prod/Web")) {
            AwsSettings s = AwsSettings.DEFAULTS.withOrg(true).withOrganizationalUnits(List.of(name), List.of());
            assertThat(mapped(s)).as(name).containsExactly("000000000001", "000000000002");
        }
        AwsSettings root = AwsSettings.DEFAULTS.withOrg(true).withOrganizationalUnits(List.of("r-ab12"), List.of());
        assertThat(mapped(root)).isEqualTo(ALL);
    }

    @Test
    void exclusionsWinOverInclusionsAndOverListedAccounts() {
        AwsSettings s = AwsSettings.DEFAULTS.withOrg(true).withAccounts(List.of("000000000004"))
                .withOrganizationalUnits(List.of("Prod"), List.of("Prod/Data"))
                .withExclusions(List.of("000000000002"), List.of());
        assertThat(mapped(s)).as("Web less A2, and A4 because aws.accounts lists it")
                .containsExactly("000000000001", "000000000004");
        AccountScope scope = new AccountScope(s, TREE);
        assertThat(scope.exclusion("000000000002")).isEqualTo("aws.exclude_accounts");
        assertThat(scope.exclusion("000000000003")).isEqualTo("aws.exclude_organizational_units Root/Prod/Data");

        AwsSettings listedButExcluded = s.withOrganizationalUnits(List.of("Prod"), List.of("Dev"));
        assertThat(new AccountScope(listedButExcluded, TREE).exclusion("000000000004"))
                .isEqualTo("aws.exclude_organizational_units Root/Dev");
    }

    @Test
    void withoutUnitsOnlyExcludedAccountsAreLeftOut() {
        AwsSettings s = AwsSettings.DEFAULTS.withExclusions(List.of("000000000003"), List.of());
        assertThat(mapped(s)).hasSize(5).doesNotContain("000000000003");
    }

    @Test
    void aUnitTheOrganizationDoesNotHaveIsRefusedNamingKeyAndValue() {
        AwsSettings s = AwsSettings.DEFAULTS.withOrg(true).withOrganizationalUnits(List.of("Prod/Wbe"), List.of());
        assertThatThrownBy(() -> new AccountScope(s, TREE)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("aws.organizational_units entry").hasMessageContaining("Prod/Wbe")
                .hasMessageContaining("Root/Prod/Web");
        AwsSettings ex = AwsSettings.DEFAULTS.withOrg(true).withOrganizationalUnits(List.of(), List.of("ou-ab12-nope0000"));
        assertThatThrownBy(() -> new AccountScope(ex, TREE)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("aws.exclude_organizational_units entry").hasMessageContaining("ou-ab12-nope0000");
    }
}
