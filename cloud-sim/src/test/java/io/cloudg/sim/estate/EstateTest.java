package io.cloudg.sim.estate;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudg.sim.config.EstateSpec;
import io.cloudg.sim.config.SecuritySpec;
import io.cloudg.sim.core.AwsType;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class EstateTest {

    @Test
    void theSameSeedGivesTheSameEstateAndAnotherSeedAnother() {
        List<Asset> a = Estate.generate(EstateSpec.defaultEstate(), 1).truth().assets();
        List<Asset> b = Estate.generate(EstateSpec.defaultEstate(), 1).truth().assets();
        List<Asset> c = Estate.generate(EstateSpec.defaultEstate(), 2).truth().assets();
        assertThat(a).isEqualTo(b);
        assertThat(a).hasSameSizeAs(c).isNotEqualTo(c);
    }

    @Test
    void theDefaultEstateHasEveryAwsTypeAndBothOtherClouds() {
        Estate e = Estate.generate(EstateSpec.defaultEstate(), 42);
        assertThat(e.aws().accounts()).hasSize(3);
        assertThat(e.aws().accounts().stream().filter(AwsAccount::management)).hasSize(1);
        Set<String> types = e.truth().assets().stream().map(Asset::type).collect(Collectors.toSet());
        for (AwsType t : AwsType.values()) {
            assertThat(types).contains(t.cfnType());
        }
        assertThat(e.azure().subscriptions()).hasSize(2);
        assertThat(e.gcp().projects()).hasSize(3);
        // the organization access role exists in members only
        for (AwsAccount acct : e.aws().accounts()) {
            assertThat(e.aws().roleExists(acct.id(), "OrganizationAccountAccessRole")).isEqualTo(!acct.management());
        }
        // ids are unique per provider and type
        long distinct = e.truth().assets().stream().map(x -> x.provider() + x.account() + x.type() + x.id()).distinct().count();
        assertThat(distinct).isEqualTo(e.truth().size());
    }

    @Test
    void aGeneratedEstateScalesToHundredsOfAccounts() {
        EstateSpec spec = EstateSpec.generated(300, List.of("us-east-1", "eu-west-1"), 1);
        Estate e = Estate.generate(spec, 3);
        assertThat(e.aws().accounts()).hasSize(300);
        assertThat(e.aws().accounts().stream().map(AwsAccount::id).distinct()).hasSize(300);
        assertThat(e.truth().select(a -> a.type().equals("AWS::EC2::VPC"))).hasSize(600);
        assertThat(e.azure().subscriptions()).hasSize(30);
    }

    @Test
    void exactlyTheSharesOfBucketsGroupsAndUsersAreExposedTheSameForTheSameSeed() {
        EstateSpec spec = EstateSpec.generated(7, List.of("us-east-1", "eu-west-1"), 3);
        Estate e = Estate.generate(spec, 5);
        Findings f = e.findings();
        assertThat(f).isEqualTo(Estate.generate(spec, 5).findings());
        assertThat(f).isNotEqualTo(Estate.generate(spec, 6).findings());
        assertThat(f.publicBuckets()).hasSize(SecuritySpec.selected(0.25, 7 * 3));
        assertThat(f.openSecurityGroups()).hasSize(SecuritySpec.selected(0.25, 7 * 2 * 3));
        assertThat(f.usersWithoutMfa()).hasSize(SecuritySpec.selected(0.5, 7 * 3));
        assertThat(f.publicBuckets().stream().map(Findings.PublicBucket::account).distinct().count())
            .as("spread over the organization").isGreaterThan(1);
        for (Findings.PublicBucket b : f.publicBuckets()) {
            assertThat(b.viaPolicy() || b.viaAcl()).isTrue();
            assertThat(e.aws().find(AwsType.S3_BUCKET, b.bucket()).region()).isEqualTo(b.region());
        }

        Estate none = Estate.generate(spec.withAws(spec.aws().withSecurity(new SecuritySpec(0, 0, 0))), 5);
        assertThat(none.findings()).isEqualTo(new Findings(List.of(), List.of(), List.of()));
        Estate all = Estate.generate(spec.withAws(spec.aws().withSecurity(new SecuritySpec(1, 1, 1))), 5);
        assertThat(all.findings().publicBuckets()).hasSize(7 * 3);
        assertThat(all.findings().openSecurityGroups()).hasSize(7 * 2 * 3);
        assertThat(all.findings().usersWithoutMfa()).hasSize(7 * 3);
    }

    @Test
    void theDefaultEstateHoldsEveryKindOfFindingWhateverTheSeed() {
        for (long seed = 0; seed < 10; seed++) {
            Findings f = Estate.generate(EstateSpec.defaultEstate(), seed).findings();
            assertThat(f.publicBuckets()).as("seed %d", seed).isNotEmpty();
            assertThat(f.openSecurityGroups()).as("seed %d", seed).isNotEmpty();
            assertThat(f.usersWithoutMfa()).as("seed %d", seed).isNotEmpty();
        }
    }

    @Test
    void awsShardsAreGeneratedWhenFirstListedAndTheCacheStaysBounded() {
        EstateSpec spec = EstateSpec.generated(400, List.of("us-east-1", "us-west-2", "eu-west-1", "eu-central-1",
            "ap-southeast-1", "ap-northeast-1", "sa-east-1", "ca-central-1", "eu-north-1", "ap-south-1", "us-east-2",
            "us-west-1", "eu-west-2"), java.util.Map.of(AwsType.EC2_VPC, 1, AwsType.EC2_SUBNET, 1));
        Estate e = Estate.generate(spec, 11);
        AwsEstate aws = e.aws();
        assertThat(aws.cachedShards()).as("nothing generated before it is listed").isZero();
        AwsAccount last = aws.accounts().get(399);
        List<AwsResource> vpcs = aws.list(last.id(), "eu-west-2", AwsType.EC2_VPC);
        assertThat(vpcs).hasSize(1);
        assertThat(aws.cachedShards()).isEqualTo(1);
        for (AwsAccount a : aws.accounts()) {
            for (String region : aws.regions()) {
                assertThat(aws.list(a.id(), region, AwsType.EC2_SUBNET)).hasSize(1);
            }
        }
        assertThat(aws.cachedShards()).as("400 x 13 shards walked").isLessThanOrEqualTo(AwsEstate.CACHED_SHARDS);
        assertThat(aws.list(last.id(), "eu-west-2", AwsType.EC2_VPC)).as("a shard generated again is the same shard")
            .isEqualTo(vpcs);
        assertThat(aws.list(last.id(), "mars-east-1", AwsType.EC2_VPC)).isEmpty();
        assertThat(aws.list("000000000000", "eu-west-2", AwsType.EC2_VPC)).isEmpty();
    }

    @Test
    void resourcesAreListedInOrdinalOrderAndFoundInTheirShard() {
        Estate e = Estate.generate(EstateSpec.defaultEstate(), 42);
        AwsAccount a = e.aws().accounts().get(1);
        List<AwsResource> images = e.aws().list(a.id(), "eu-west-1", AwsType.EC2_IMAGE);
        assertThat(images).hasSize(3);
        assertThat(images).extracting(AwsResource::ordinal).isSorted().doesNotHaveDuplicates();
        for (AwsResource r : images) {
            assertThat(e.aws().find(a.id(), "eu-west-1", AwsType.EC2_IMAGE, r.id())).isEqualTo(r);
            assertThat(e.aws().find(a.id(), "us-east-1", AwsType.EC2_IMAGE, r.id())).isNull();
            assertThat(r.life().stable()).isTrue();
        }
        AwsResource bucket = e.aws().list(a.id(), "global", AwsType.S3_BUCKET).get(0);
        assertThat(e.aws().bucket(bucket.id())).isEqualTo(bucket);
        assertThat(e.aws().bucket("sim-" + a.id() + "-bucket-9-00000000")).isNull();
        assertThat(e.aws().bucket("someone-elses-bucket")).isNull();
    }

    @Test
    void aThousandAccountsInSeventeenRegionsAreGeneratedOnlyWhereTheyAreListed() {
        List<String> seventeen = List.of("us-east-1", "us-east-2", "us-west-1", "us-west-2", "ca-central-1", "eu-west-1",
            "eu-west-2", "eu-west-3", "eu-central-1", "eu-north-1", "ap-south-1", "ap-northeast-1", "ap-northeast-2",
            "ap-northeast-3", "ap-southeast-1", "ap-southeast-2", "sa-east-1");
        EstateSpec spec = EstateSpec.generated(1000, seventeen, java.util.Map.of(AwsType.EC2_VPC, 1, AwsType.EC2_SUBNET, 2,
            AwsType.EC2_SECURITY_GROUP, 1, AwsType.S3_BUCKET, 1, AwsType.IAM_USER, 1));
        Estate e = Estate.generate(spec, 1);
        assertThat(e.aws().accounts()).hasSize(1000);
        assertThat(e.aws().regions()).hasSize(17);
        assertThat(e.aws().cachedShards()).isZero();
        AwsAccount last = e.aws().accounts().get(999);
        assertThat(e.aws().list(last.id(), "sa-east-1", AwsType.EC2_SUBNET)).hasSize(2);
        assertThat(e.aws().list(last.id(), "global", AwsType.S3_BUCKET)).hasSize(1);
        assertThat(e.aws().cachedShards()).isEqualTo(2);
        assertThat(e.aws().bucket(e.aws().list(last.id(), "global", AwsType.S3_BUCKET).get(0).id())).isNotNull();
    }
}
