package io.cloudg.sim.estate;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudg.sim.Asset;
import io.cloudg.sim.config.EstateSpec;
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
}
