package io.cloudg.sim.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cloudg.sim.estate.Asset;
import io.cloudg.sim.CloudSim;
import io.cloudg.sim.SimOptions;
import io.cloudg.sim.config.EstateSpec;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.model.DescribeImageAttributeResponse;
import software.amazon.awssdk.services.ec2.model.Ec2Exception;
import software.amazon.awssdk.services.ec2.model.Filter;
import software.amazon.awssdk.services.ec2.model.ImageAttributeName;
import software.amazon.awssdk.services.ec2.model.Instance;
import software.amazon.awssdk.services.ec2.model.InternetGateway;
import software.amazon.awssdk.services.ec2.model.KeyPairInfo;
import software.amazon.awssdk.services.ec2.model.LaunchTemplate;
import software.amazon.awssdk.services.ec2.model.NatGateway;
import software.amazon.awssdk.services.ec2.model.NetworkInterface;
import software.amazon.awssdk.services.ec2.model.RouteTable;
import software.amazon.awssdk.services.ec2.model.SecurityGroup;
import software.amazon.awssdk.services.ec2.model.Snapshot;
import software.amazon.awssdk.services.ec2.model.Subnet;
import software.amazon.awssdk.services.ec2.model.Volume;
import software.amazon.awssdk.services.ec2.model.Vpc;
import software.amazon.awssdk.services.organizations.OrganizationsClient;
import software.amazon.awssdk.services.organizations.model.AccessDeniedException;
import software.amazon.awssdk.services.organizations.model.Account;
import software.amazon.awssdk.services.sts.StsClient;
import software.amazon.awssdk.services.sts.model.Credentials;
import software.amazon.awssdk.services.sts.model.StsException;

/** Real SDK clients: organization discovery, role assumption, and every EC2 listing against the truth. */
class Ec2StsOrganizationsTest {
    static CloudSim sim;
    static String management;

    @BeforeAll
    static void start() {
        sim = CloudSim.start(SimOptions.builder().estate(EstateSpec.defaultEstate()).seed(7).build());
        management = sim.estate().aws().management().id();
    }

    @AfterAll
    static void stop() {
        sim.close();
    }

    static StsClient sts(AwsCredentialsProvider creds) {
        return AwsClients.aim(StsClient.builder(), sim, Region.US_EAST_1, creds).build();
    }

    static Credentials assume(String account) {
        try (StsClient sts = sts(AwsClients.management())) {
            return sts.assumeRole(b -> b.roleArn("arn:aws:iam::" + account + ":role/OrganizationAccountAccessRole")
                .roleSessionName("cloudg-test")).credentials();
        }
    }

    @Test
    void anyUnknownKeyIsTheManagementAccountAndAssumedRolesAreTheMembers() {
        try (StsClient sts = sts(AwsClients.management())) {
            assertThat(sts.getCallerIdentity().account()).isEqualTo(management);
        }
        String member = sim.estate().aws().accounts().get(1).id();
        Credentials c = assume(member);
        assertThat(c.accessKeyId()).startsWith("ASIA");
        try (StsClient sts = sts(AwsClients.of(c))) {
            assertThat(sts.getCallerIdentity().arn())
                .isEqualTo("arn:aws:sts::" + member + ":assumed-role/OrganizationAccountAccessRole/cloudg-test");
        }
    }

    @Test
    void assumingARoleThatDoesNotExistIsAccessDeniedInStsShape() {
        String member = sim.estate().aws().accounts().get(1).id();
        try (StsClient sts = sts(AwsClients.management())) {
            assertThatThrownBy(() -> sts.assumeRole(b -> b.roleArn("arn:aws:iam::" + member + ":role/NoSuchRole")
                .roleSessionName("x")))
                .isInstanceOfSatisfying(StsException.class, e -> {
                    assertThat(e.statusCode()).isEqualTo(403);
                    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("AccessDenied");
                    assertThat(e.isThrottlingException()).isFalse();
                });
            assertThatThrownBy(() -> sts.assumeRole(b -> b.roleArn("arn:aws:iam::999999999999:role/OrganizationAccountAccessRole")
                .roleSessionName("x")))
                .isInstanceOfSatisfying(StsException.class, e -> assertThat(e.statusCode()).isEqualTo(403));
        }
    }

    @Test
    void listAccountsPagesThroughTheOrganizationOnlyForTheManagementAccount() {
        Set<String> truth = ids(a -> a.type().equals("AWS::Organizations::Account"));
        try (OrganizationsClient org = AwsClients.aim(OrganizationsClient.builder(), sim, Region.AWS_GLOBAL,
            AwsClients.management()).build()) {
            List<Account> accounts = org.listAccountsPaginator(b -> b.maxResults(1)).stream().flatMap(p -> p.accounts().stream()).toList();
            assertThat(accounts).hasSize(truth.size());
            assertThat(accounts.stream().map(Account::id).collect(Collectors.toSet())).isEqualTo(truth);
            assertThat(org.describeOrganization().organization().masterAccountId()).isEqualTo(management);
        }
        String member = sim.estate().aws().accounts().get(2).id();
        try (OrganizationsClient org = AwsClients.aim(OrganizationsClient.builder(), sim, Region.AWS_GLOBAL,
            AwsClients.of(assume(member))).build()) {
            assertThatThrownBy(org::listAccounts).isInstanceOf(AccessDeniedException.class);
        }
    }

    @Test
    void everyEc2ListingInEveryAccountAndRegionMatchesTheTruth() {
        int compared = 0;
        for (var account : sim.estate().aws().accounts()) {
            AwsCredentialsProvider creds = account.management() ? AwsClients.management()
                : AwsClients.of(assume(account.id()));
            for (String region : sim.estate().aws().regions()) {
                try (Ec2Client ec2 = AwsClients.aim(Ec2Client.builder(), sim, Region.of(region), creds).build()) {
                    assertThat(ec2.describeRegions().regions()).extracting(r -> r.regionName())
                        .containsExactlyElementsOf(sim.estate().aws().regions());
                    String a = account.id();
                    compared += check(a, region, "AWS::EC2::VPC", ec2.describeVpcsPaginator(b -> b.maxResults(5)).vpcs().stream().map(Vpc::vpcId));
                    compared += check(a, region, "AWS::EC2::Subnet", ec2.describeSubnetsPaginator(b -> b.maxResults(5)).subnets().stream().map(Subnet::subnetId));
                    compared += check(a, region, "AWS::EC2::SecurityGroup", ec2.describeSecurityGroupsPaginator(b -> b.maxResults(5)).securityGroups().stream().map(SecurityGroup::groupId));
                    compared += check(a, region, "AWS::EC2::NetworkInterface", ec2.describeNetworkInterfacesPaginator(b -> b.maxResults(5)).networkInterfaces().stream().map(NetworkInterface::networkInterfaceId));
                    compared += check(a, region, "AWS::EC2::Instance", ec2.describeInstancesPaginator(b -> b.maxResults(5)).reservations().stream().flatMap(r -> r.instances().stream()).map(Instance::instanceId));
                    compared += check(a, region, "AWS::EC2::Volume", ec2.describeVolumesPaginator(b -> b.maxResults(5)).volumes().stream().map(Volume::volumeId));
                    compared += check(a, region, "AWS::EC2::Snapshot", ec2.describeSnapshotsPaginator(b -> b.ownerIds("self").maxResults(5)).snapshots().stream().map(Snapshot::snapshotId));
                    compared += check(a, region, "AWS::EC2::Image", ec2.describeImagesPaginator(b -> b.owners("self").maxResults(5)).images().stream().map(i -> i.imageId()));
                    compared += check(a, region, "AWS::EC2::InternetGateway", ec2.describeInternetGatewaysPaginator(b -> b.maxResults(5)).internetGateways().stream().map(InternetGateway::internetGatewayId));
                    compared += check(a, region, "AWS::EC2::NatGateway", ec2.describeNatGatewaysPaginator(b -> b.maxResults(5)).natGateways().stream().map(NatGateway::natGatewayId));
                    compared += check(a, region, "AWS::EC2::RouteTable", ec2.describeRouteTablesPaginator(b -> b.maxResults(5)).routeTables().stream().map(RouteTable::routeTableId));
                    compared += check(a, region, "AWS::EC2::KeyPair", ec2.describeKeyPairs().keyPairs().stream().map(KeyPairInfo::keyName));
                    compared += check(a, region, "AWS::EC2::EIP", ec2.describeAddresses().addresses().stream().map(x -> x.allocationId()));
                    compared += check(a, region, "AWS::EC2::LaunchTemplate", ec2.describeLaunchTemplatesPaginator(b -> b.maxResults(1)).launchTemplates().stream().map(LaunchTemplate::launchTemplateId));
                    assertThat(ec2.describeImages(b -> b.owners("amazon")).images()).isEmpty();
                    for (String ami : sim.truth().ids("aws", a, region, "AWS::EC2::Image")) {
                        DescribeImageAttributeResponse attr = ec2.describeImageAttribute(b -> b.imageId(ami)
                            .attribute(ImageAttributeName.LAUNCH_PERMISSION));
                        assertThat(attr.imageId()).isEqualTo(ami);
                        assertThat(ec2.describeImageAttribute(b -> b.imageId(ami).attribute(ImageAttributeName.DESCRIPTION))
                            .description().value()).startsWith("cloud-sim image");
                    }
                    assertThatThrownBy(() -> ec2.describeImageAttribute(b -> b.imageId("ami-00000000000000000")
                        .attribute(ImageAttributeName.DESCRIPTION)))
                        .isInstanceOfSatisfying(Ec2Exception.class,
                            e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo("InvalidAMIID.NotFound"));
                }
            }
        }
        java.util.Set<String> checked = java.util.Set.of("AWS::EC2::VPC", "AWS::EC2::Subnet", "AWS::EC2::SecurityGroup",
            "AWS::EC2::NetworkInterface", "AWS::EC2::Instance", "AWS::EC2::Volume", "AWS::EC2::Snapshot", "AWS::EC2::Image",
            "AWS::EC2::InternetGateway", "AWS::EC2::NatGateway", "AWS::EC2::RouteTable", "AWS::EC2::KeyPair",
            "AWS::EC2::EIP", "AWS::EC2::LaunchTemplate"); // the EC2 types of the data-declared operations: ModelOperationsTest
        assertThat(compared).isEqualTo(sim.truth().select(x -> x.provider().equals("aws") && checked.contains(x.type()))
            .size());
    }

    @Test
    void filtersAndIdListsNarrowEc2Listings() {
        String region = "us-east-1";
        try (Ec2Client ec2 = AwsClients.aim(Ec2Client.builder(), sim, Region.of(region), AwsClients.management()).build()) {
            List<Vpc> vpcs = ec2.describeVpcs().vpcs();
            String vpc = vpcs.get(0).vpcId();
            List<Subnet> inVpc = ec2.describeSubnets(b -> b.filters(Filter.builder().name("vpc-id").values(vpc).build())).subnets();
            assertThat(inVpc).isNotEmpty().allSatisfy(s -> assertThat(s.vpcId()).isEqualTo(vpc));
            assertThat(inVpc.size()).isLessThan(ec2.describeSubnets().subnets().size());
            assertThat(ec2.describeVpcs(b -> b.vpcIds(vpc)).vpcs()).extracting(Vpc::vpcId).containsExactly(vpc);
            assertThatThrownBy(() -> ec2.describeVpcs(b -> b.filters(Filter.builder().name("no-such-filter").values("x").build())))
                .isInstanceOfSatisfying(Ec2Exception.class,
                    e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo("InvalidParameterValue"));
            assertThatThrownBy(() -> ec2.describeVpcs(b -> b.maxResults(2)))
                .isInstanceOfSatisfying(Ec2Exception.class, e -> assertThat(e.statusCode()).isEqualTo(400));
        }
    }

    private static Set<String> ids(java.util.function.Predicate<Asset> p) {
        return sim.truth().select(p).stream().map(Asset::id).collect(Collectors.toSet());
    }

    private static int check(String account, String region, String type, Stream<String> listed) {
        List<String> got = listed.toList();
        Set<String> truth = sim.truth().ids("aws", account, region, type);
        assertThat(new HashSet<>(got)).as("%s in %s/%s", type, account, region).isEqualTo(truth);
        assertThat(got).as("no duplicates across pages of %s", type).hasSize(truth.size());
        assertThat(truth).as("estate has %s", type).isNotEmpty();
        return got.size();
    }
}
