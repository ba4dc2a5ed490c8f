package io.cloudg.sim.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cloudg.sim.estate.Asset;
import io.cloudg.sim.CloudSim;
import io.cloudg.sim.Http;
import io.cloudg.sim.Organization;
import io.cloudg.sim.SimOptions;
import io.cloudg.sim.config.EstateSpec;
import java.net.URI;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.organizations.OrganizationsClient;
import software.amazon.awssdk.services.organizations.model.Account;
import software.amazon.awssdk.services.organizations.model.ChildType;
import software.amazon.awssdk.services.organizations.model.OrganizationalUnit;
import software.amazon.awssdk.services.organizations.model.Parent;
import software.amazon.awssdk.services.sts.StsClient;

/** Organizations' structure, suspended accounts and per-account opt-in regions, through the real SDK. */
class OrganizationStructureTest {
    static CloudSim sim;
    static OrganizationsClient org;
    static Organization truth;

    @BeforeAll
    static void start() {
        sim = CloudSim.start(SimOptions.builder().seed(14).estate(EstateSpec.fromYaml("""
            aws:
              accounts: 12
              regions: [us-east-1, eu-west-1]
              organizational_units: {Prod/Web: 3, Prod/Data: 2, Root/Dev: 2}
              suspended_accounts: 2
              opt_in_regions: {af-south-1: 0.5, me-south-1: 0.25}
              resources: {AWS::EC2::VPC: 1, AWS::S3::Bucket: 1}
            """)).build());
        org = AwsClients.aim(OrganizationsClient.builder(), sim, Region.AWS_GLOBAL, AwsClients.management()).build();
        truth = sim.organization();
    }

    @AfterAll
    static void stop() {
        org.close();
        sim.close();
    }

    @Test
    void theTreeOfRootsAndUnitsIsServedAsTheTruthHasIt() {
        var roots = org.listRoots().roots();
        assertThat(roots).hasSize(1);
        String root = roots.get(0).id();
        assertThat(root).isEqualTo(truth.rootId()).matches("r-[a-z0-9]{4}");
        assertThat(roots.get(0).arn()).endsWith(":root/" + truth.id() + "/" + root);

        List<OrganizationalUnit> top = org.listOrganizationalUnitsForParentPaginator(b -> b.parentId(root)).stream()
            .flatMap(r -> r.organizationalUnits().stream()).toList();
        assertThat(top).extracting(OrganizationalUnit::name).containsExactlyInAnyOrder("Prod", "Dev");
        OrganizationalUnit prod = top.stream().filter(u -> u.name().equals("Prod")).findFirst().orElseThrow();
        assertThat(prod.id()).isEqualTo(truth.unit("Root/Prod").id()).matches("ou-[a-z0-9]{4}-[a-z0-9]{8}");
        List<OrganizationalUnit> underProd = org.listOrganizationalUnitsForParent(b -> b.parentId(prod.id()))
            .organizationalUnits();
        assertThat(underProd).extracting(OrganizationalUnit::name).containsExactlyInAnyOrder("Web", "Data");
        String web = truth.unit("Prod/Web").id();
        assertThat(org.describeOrganizationalUnit(b -> b.organizationalUnitId(web)).organizationalUnit().name())
            .isEqualTo("Web");

        Set<String> inWeb = org.listAccountsForParentPaginator(b -> b.parentId(web)).stream()
            .flatMap(r -> r.accounts().stream()).map(Account::id).collect(Collectors.toSet());
        assertThat(inWeb).hasSize(3).isEqualTo(truth.accountsUnder("Root/Prod/Web"));
        assertThat(truth.accountsUnder("Prod")).hasSize(5).containsAll(inWeb);
        assertThat(org.listChildren(b -> b.parentId(root).childType(ChildType.ACCOUNT)).children()).hasSize(5)
            .as("the management account and the 4 members left in Root");
        assertThat(truth.accountsUnder("Root")).hasSize(12);

        String member = inWeb.iterator().next();
        List<Parent> parents = org.listParents(b -> b.childId(member)).parents();
        assertThat(parents).singleElement().satisfies(p -> {
            assertThat(p.id()).isEqualTo(web);
            assertThat(p.typeAsString()).isEqualTo("ORGANIZATIONAL_UNIT");
        });
        assertThat(org.listParents(b -> b.childId(prod.id())).parents().get(0).typeAsString()).isEqualTo("ROOT");
        assertThat(org.describeAccount(b -> b.accountId(member)).account().id()).isEqualTo(member);

        assertOrgError(() -> org.describeOrganizationalUnit(b -> b.organizationalUnitId("ou-abcd-zzzzzzzz")),
            "OrganizationalUnitNotFoundException");
        assertOrgError(() -> org.listAccountsForParent(b -> b.parentId("ou-abcd-zzzzzzzz")), "ParentNotFoundException");
        assertOrgError(() -> org.listAccountsForParent(b -> b.parentId("Prod")), "InvalidInputException");
        assertOrgError(() -> org.listParents(b -> b.childId("000000000000")), "ChildNotFoundException");
    }

    @Test
    void suspendedAccountsAreListedAsSuchAndCannotBeEntered() {
        List<Account> all = org.listAccountsPaginator().stream().flatMap(r -> r.accounts().stream()).toList();
        assertThat(all).hasSize(12);
        Set<String> suspended = all.stream().filter(a -> a.statusAsString().equals("SUSPENDED")).map(Account::id)
            .collect(Collectors.toSet());
        assertThat(suspended).hasSize(2).isEqualTo(truth.suspendedAccounts());
        assertThat(all.stream().filter(a -> suspended.contains(a.id()))).allMatch(a -> a.stateAsString().equals("SUSPENDED"));
        try (StsClient sts = AwsClients.aim(StsClient.builder(), sim, Region.US_EAST_1, AwsClients.management()).build()) {
            String s = suspended.iterator().next();
            assertThatThrownBy(() -> sts.assumeRole(b -> b.roleArn("arn:aws:iam::" + s + ":role/OrganizationAccountAccessRole")
                .roleSessionName("x"))).isInstanceOfSatisfying(AwsServiceException.class, e -> {
                    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("AccessDenied");
                    assertThat(e.getMessage()).contains("suspended");
                });
        }
        // they hold nothing a map could list: only their Organizations record is in the truth
        for (String s : suspended) {
            assertThat(sim.truth().select(a -> a.account().equals(s))).extracting(Asset::type)
                .containsExactly("AWS::Organizations::Account");
        }
    }

    @Test
    void eachMemberAccountAnswersDescribeRegionsWithItsOwnEnabledRegions() {
        try (StsClient sts = AwsClients.aim(StsClient.builder(), sim, Region.US_EAST_1, AwsClients.management()).build()) {
            Set<List<String>> distinct = new HashSet<>();
            for (Organization.Member m : truth.accounts()) {
                if (m.suspended()) {
                    continue;
                }
                AwsCredentialsProvider creds = m.id().equals(truth.managementAccount()) ? AwsClients.management()
                    : AwsClients.of(sts.assumeRole(b -> b.roleArn("arn:aws:iam::" + m.id()
                        + ":role/OrganizationAccountAccessRole").roleSessionName("regions")).credentials());
                try (Ec2Client ec2 = AwsClients.aim(Ec2Client.builder(), sim, Region.US_EAST_1, creds).build()) {
                    List<String> enabled = ec2.describeRegions().regions().stream()
                        .map(software.amazon.awssdk.services.ec2.model.Region::regionName).toList();
                    assertThat(enabled).as(m.id()).containsExactlyInAnyOrderElementsOf(m.regions());
                    distinct.add(List.copyOf(new java.util.TreeSet<>(enabled)));
                    var all = ec2.describeRegions(b -> b.allRegions(true)).regions();
                    assertThat(all).hasSize(4);
                    for (var r : all) {
                        String expected = r.regionName().startsWith("us-") || r.regionName().startsWith("eu-")
                            ? "opt-in-not-required" : m.regions().contains(r.regionName()) ? "opted-in" : "not-opted-in";
                        assertThat(r.optInStatus()).as(m.id() + " " + r.regionName()).isEqualTo(expected);
                    }
                    for (String optIn : List.of("af-south-1", "me-south-1")) {
                        Set<String> truthVpcs = sim.truth().ids("aws", m.id(), optIn, "AWS::EC2::VPC");
                        if (m.regions().contains(optIn)) {
                            try (Ec2Client there = AwsClients.aim(Ec2Client.builder(), sim, Region.of(optIn), creds).build()) {
                                assertThat(there.describeVpcs().vpcs()).hasSize(1).extracting(v -> v.vpcId())
                                    .containsExactlyElementsOf(truthVpcs);
                            }
                        } else {
                            assertThat(truthVpcs).isEmpty();
                            try (Ec2Client there = AwsClients.aimNoRetry(Ec2Client.builder(), sim, Region.of(optIn), creds)
                                .build()) {
                                assertThatThrownBy(there::describeVpcs).isInstanceOfSatisfying(AwsServiceException.class,
                                    e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo("AuthFailure"));
                            }
                        }
                    }
                }
            }
            assertThat(distinct).as("accounts differ in their regions").hasSizeGreaterThan(1);
        }
        assertThat(truth.optInRegions()).containsExactly("af-south-1", "me-south-1");
        long afSouth = truth.accounts().stream().filter(m -> m.regions().contains("af-south-1")).count();
        assertThat(afSouth).isEqualTo(6);
    }

    @Test
    void membersMayNotReadTheStructureAndTheTruthServesIt() throws Exception {
        String member = truth.accounts().stream().filter(m -> !m.suspended() && !m.id().equals(truth.managementAccount()))
            .findFirst().orElseThrow().id();
        try (StsClient sts = AwsClients.aim(StsClient.builder(), sim, Region.US_EAST_1, AwsClients.management()).build();
             OrganizationsClient asMember = AwsClients.aim(OrganizationsClient.builder(), sim, Region.AWS_GLOBAL,
                 AwsClients.of(sts.assumeRole(b -> b.roleArn("arn:aws:iam::" + member + ":role/OrganizationAccountAccessRole")
                     .roleSessionName("m")).credentials())).build()) {
            assertThatThrownBy(asMember::listRoots).isInstanceOfSatisfying(AwsServiceException.class,
                e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo("AccessDeniedException"));
        }
        JsonNode t = new ObjectMapper().readTree(Http.get(URI.create(sim.awsEndpoint() + "/_sim/truth")).body());
        JsonNode o = t.path("organization");
        assertThat(o.path("root_id").asText()).isEqualTo(truth.rootId());
        assertThat(o.path("organizational_units").size()).isEqualTo(5);
        assertThat(o.path("accounts").size()).isEqualTo(12);
        JsonNode first = o.path("accounts").get(0);
        assertThat(first.path("path").asText()).isEqualTo("Root");
        assertThat(first.path("status").asText()).isEqualTo("ACTIVE");
        assertThat(first.path("regions").get(0).asText()).isEqualTo("us-east-1");
        long suspended = 0;
        for (JsonNode a : o.path("accounts")) {
            suspended += a.path("status").asText().equals("SUSPENDED") ? 1 : 0;
        }
        assertThat(suspended).isEqualTo(2);
    }

    private static void assertOrgError(Runnable call, String code) {
        assertThatThrownBy(call::run).isInstanceOfSatisfying(AwsServiceException.class,
            e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo(code));
    }
}
