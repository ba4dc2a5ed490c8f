package io.cloudg.sim.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cloudg.sim.estate.Asset;
import io.cloudg.sim.CloudSim;
import io.cloudg.sim.SimOptions;
import io.cloudg.sim.estate.Truth;
import io.cloudg.sim.config.EstateSpec;
import io.cloudg.sim.config.FaultSpec;
import io.cloudg.sim.config.LatencySpec;
import io.cloudg.sim.config.QuotaSpec;
import io.cloudg.sim.config.Realism;
import io.cloudg.sim.core.Counters;
import io.cloudg.sim.gate.Gate;
import io.cloudg.sim.core.ManualClock;
import io.cloudg.sim.gate.QuotaPolicy;
import io.cloudg.sim.estate.Estate;
import io.cloudg.sim.fault.FaultEngine;
import io.cloudg.sim.http.SimRequest;
import io.cloudg.sim.http.SimResponse;
import io.cloudg.sim.paging.Pager;
import io.cloudg.sim.quota.Neighbour;
import io.cloudg.sim.quota.QuotaBook;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.model.DescribeVpcsResponse;
import software.amazon.awssdk.services.ec2.model.Vpc;
import software.amazon.awssdk.services.iam.IamClient;
import software.amazon.awssdk.services.iam.model.User;

/** Strict listings through the real SDK: short and empty pages with a next token, sealed cursors, churn. */
class StrictListingsTest {

    static EstateSpec strict(String extra) {
        return EstateSpec.fromYaml("""
            realism: strict
            aws: {accounts: 2, regions: [us-east-1, eu-west-1],
                  resources: {AWS::EC2::VPC: 60, AWS::IAM::User: 40}}
            quotas: {enabled: false}
            """ + extra);
    }

    @Test
    void pagesAreSometimesShortOrEmptyYetEveryVpcIsListedOnceAndTokensAreSealedCursors() {
        try (CloudSim sim = CloudSim.start(SimOptions.builder().seed(3).clock(new ManualClock())
            .estate(strict("churn: {created: 0, deleted: 0}")).build());
             Ec2Client ec2 = AwsClients.aimNoRetry(Ec2Client.builder(), sim, Region.EU_WEST_1, AwsClients.management())
                 .build()) {
            List<Integer> sizes = new ArrayList<>();
            List<String> ids = new ArrayList<>();
            String token = null;
            String first = null;
            do {
                String t = token;
                DescribeVpcsResponse r = ec2.describeVpcs(b -> b.maxResults(5).nextToken(t));
                sizes.add(r.vpcs().size());
                r.vpcs().forEach(v -> ids.add(v.vpcId()));
                token = r.nextToken();
                if (first == null) {
                    first = token;
                }
            } while (token != null);
            assertThat(ids).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(
                sim.truth().ids("aws", sim.estate().aws().management().id(), "eu-west-1", "AWS::EC2::VPC"));
            assertThat(sizes.subList(0, sizes.size() - 1)).as("pages before the last: " + sizes)
                .anyMatch(n -> n < 5).allMatch(n -> n <= 5);
            assertThat(sizes).as("%s", sizes).contains(0);
            for (int i = 1; i < sizes.size(); i++) {
                assertThat(sizes.get(i - 1) == 0 && sizes.get(i) == 0).as("never two empty pages in a row").isFalse();
            }
            // the same listing again pages the same way (seeded)
            List<String> again = ec2.describeVpcsPaginator(b -> b.maxResults(5)).vpcs().stream().map(Vpc::vpcId).toList();
            assertThat(again).isEqualTo(ids);

            String raw = new String(Base64.getUrlDecoder().decode(first), StandardCharsets.ISO_8859_1);
            assertThat(raw).as("no readable offset in the token").doesNotContain("sim|").doesNotContain("DescribeVpcs");
            String tampered = first.substring(0, first.length() - 2) + (first.endsWith("A") ? "BA" : "AA");
            assertThatThrownBy(() -> ec2.describeVpcs(b -> b.maxResults(5).nextToken(tampered)))
                .isInstanceOfSatisfying(AwsServiceException.class,
                    e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo("InvalidNextToken"));
            String fromEu = first;
            try (Ec2Client us = AwsClients.aimNoRetry(Ec2Client.builder(), sim, Region.US_EAST_1, AwsClients.management())
                .build()) {
                assertThatThrownBy(() -> us.describeVpcs(b -> b.maxResults(5).nextToken(fromEu)))
                    .as("another region's token").isInstanceOf(AwsServiceException.class);
            }
        }
    }

    @Test
    void aMapWhileResourcesComeAndGoHoldsEveryStableAssetAndNothingThatNeverExisted() {
        ManualClock clock = new ManualClock();
        try (CloudSim sim = CloudSim.start(SimOptions.builder().seed(8).clock(clock)
            .estate(strict("churn: {created: 0.2, deleted: 0.2, from: 0s, until: 60s}")).build());
             IamClient iam = AwsClients.aimNoRetry(IamClient.builder(), sim, Region.AWS_GLOBAL, AwsClients.management())
                 .build();
             Ec2Client ec2 = AwsClients.aimNoRetry(Ec2Client.builder(), sim, Region.US_EAST_1, AwsClients.management())
                 .build()) {
            String account = sim.estate().aws().management().id();
            Truth truth = sim.truth();
            List<Asset> churned = truth.churned().stream().filter(a -> a.account().equals(account)).toList();
            assertThat(churned).extracting(a -> a.churn().kind()).contains("created", "deleted");
            assertThat(churned).allSatisfy(a -> assertThat(a.churn().atMillis()).isBetween(0L, 60_000L));

            // page through while time runs: 5 s between pages, across the whole churn window
            Set<String> mapped = new HashSet<>();
            String token = null;
            do {
                String t = token;
                var r = iam.listUsers(b -> b.maxItems(3).marker(t));
                r.users().stream().map(User::userName).forEach(n -> mapped.add("AWS::IAM::User|" + n));
                token = r.isTruncated() ? r.marker() : null;
                clock.advance(Duration.ofSeconds(5));
            } while (token != null);
            Truth.Check check = truth.check(mapped, a -> a.account().equals(account) && a.type().equals("AWS::IAM::User"),
                a -> a.type() + "|" + a.id());
            assertThat(check.missingStable()).isEmpty();
            assertThat(check.neverExisted()).isEmpty();
            assertThat(check.equal()).isTrue();

            // after the window: created ones are there, deleted ones gone
            clock.advance(Duration.ofMinutes(2));
            Set<String> vpcsNow = ec2.describeVpcsPaginator(b -> b.maxResults(1000)).vpcs().stream().map(Vpc::vpcId)
                .collect(Collectors.toSet());
            for (Asset a : truth.select(x -> x.account().equals(account) && x.region().equals("us-east-1")
                && x.type().equals("AWS::EC2::VPC"))) {
                boolean expected = a.stable() || a.churn().kind().equals("created");
                assertThat(vpcsNow.contains(a.id())).as(a.id() + " " + a.churn()).isEqualTo(expected);
            }
            // and a map that invents an asset is not equal
            mapped.add("AWS::IAM::User|nobody");
            assertThat(truth.check(mapped, a -> a.account().equals(account) && a.type().equals("AWS::IAM::User"),
                a -> a.type() + "|" + a.id()).neverExisted()).containsExactly("AWS::IAM::User|nobody");
        }
    }

    @Test
    void theDelayOfAnAnswerGrowsWithTheItemsItLists() {
        EstateSpec spec = strict("churn: {created: 0, deleted: 0}").withLatency(new LatencySpec(Duration.ZERO,
            Duration.ZERO, Duration.ofMillis(2)));
        Estate estate = Estate.generate(spec, 1);
        Gate gate = new Gate(new QuotaBook(new ManualClock(), false, s -> Neighbour.NONE, 1),
            new FaultEngine(FaultSpec.NONE, new ManualClock(), 1), spec.latency(), spec.latency().perItem(Realism.STRICT),
            1, new Counters());
        AwsFrontend aws = new AwsFrontend(new AwsCatalog(), new AwsCall.AwsContext(estate.aws(),
            new AwsPrincipals(estate.aws(), 1), new ManualClock(), new Pager(spec.listings().effective(Realism.LENIENT), 1)),
            gate, new QuotaPolicy(QuotaSpec.defaults(Realism.STRICT)), 1);
        SimResponse ten = aws.handle(describeVpcs(10));
        SimResponse fifty = aws.handle(describeVpcs(50));
        assertThat(ten.status()).isEqualTo(200);
        assertThat(ten.delayNanos()).isEqualTo(Duration.ofMillis(20).toNanos());
        assertThat(fifty.delayNanos()).isEqualTo(Duration.ofMillis(100).toNanos());
        assertThat(spec.withRealism(Realism.LENIENT).latency().perItem(Realism.LENIENT))
            .as("explicit per_item applies in lenient too").isEqualTo(Duration.ofMillis(2));
        assertThat(LatencySpec.NONE.perItem(Realism.LENIENT)).isZero();
    }

    private static SimRequest describeVpcs(int max) {
        DefaultHttpHeaders h = new DefaultHttpHeaders();
        h.add("Authorization", io.cloudg.sim.Http.sigv4("test", "us-east-1", "ec2"));
        h.add("Content-Type", "application/x-www-form-urlencoded; charset=utf-8");
        return new SimRequest("POST", "/", h, ("Action=DescribeVpcs&Version=2016-11-15&MaxResults=" + max)
            .getBytes(StandardCharsets.UTF_8));
    }
}
