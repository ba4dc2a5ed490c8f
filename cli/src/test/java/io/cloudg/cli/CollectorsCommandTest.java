package io.cloudg.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudg.aws.AwsPermissions;
import org.junit.jupiter.api.Test;

/** {@code cloudg collectors}: the catalog with its calls and IAM actions, the policy, a bad selector refused. */
class CollectorsCommandTest {
    @Test
    void listsTheSelectedCollectorsWithTheirCallsAndPermissions() {
        MapCommandTest.Run r = MapCommandTest.run("collectors", "s3", "iam_users");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("s3_buckets", "GetBucketLogging -> s3:ListAllMyBuckets", "iam_users",
                "iam:ListMFADevices", "2 collector(s)").doesNotContain("amis");
        MapCommandTest.Run all = MapCommandTest.run("collectors", "--json");
        assertThat(all.code()).isZero();
        assertThat(all.out().lines().filter(l -> l.startsWith("{\"name\":")).count()).isGreaterThanOrEqualTo(150);
    }

    @Test
    void printsThePolicyAndRefusesASelectorThatPicksNothing() {
        MapCommandTest.Run p = MapCommandTest.run("collectors", "--policy");
        assertThat(p.code()).isZero();
        assertThat(p.out()).isEqualTo(AwsPermissions.policyJson());
        MapCommandTest.Run bad = MapCommandTest.run("collectors", "ec3");
        assertThat(bad.code()).isEqualTo(ExitCodes.CANNOT_START);
        assertThat(bad.err().lines().count()).isEqualTo(1);
        assertThat(bad.err()).contains("SELECTOR").contains("ec3");
    }
}
