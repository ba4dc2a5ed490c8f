package io.cloudg.sim.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cloudg.sim.CloudSim;
import io.cloudg.sim.Http;
import io.cloudg.sim.SimOptions;
import io.cloudg.sim.config.EstateSpec;
import io.cloudg.sim.config.Realism;
import io.cloudg.sim.core.ManualClock;
import io.cloudg.sim.quota.BucketStats;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.lambda.model.TooManyRequestsException;
import software.amazon.awssdk.services.organizations.OrganizationsClient;
import software.amazon.awssdk.services.s3.S3Client;

/** The strict profile's AWS quotas: hints only where AWS sends them, published limits, S3 per bucket. */
class StrictAwsQuotasTest {
    static final String ESTATE = """
        aws: {accounts: 2, regions: [us-east-1],
              resources: {AWS::EC2::VPC: 2, AWS::S3::Bucket: 2, AWS::Lambda::Function: 1}}
        churn: {created: 0, deleted: 0}
        quotas: {aws: {services: {ec2.DescribeVpcs: {rate: 1, burst: 2}, lambda: {rate: 1, burst: 1}}}}
        """;

    static CloudSim start(Realism realism, ManualClock clock, String yaml) {
        return CloudSim.start(SimOptions.builder().clock(clock)
            .estate(EstateSpec.fromYaml("realism: " + realism.id() + "\n" + yaml)).build());
    }

    /** An EC2 DescribeVpcs as the SDK sends it, on the wire. */
    static HttpResponse<String> describeVpcs(CloudSim sim) {
        return Http.send(HttpRequest.newBuilder(sim.awsEndpoint())
            .header("Authorization", Http.sigv4("test", "us-east-1", "ec2"))
            .header("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")
            .POST(HttpRequest.BodyPublishers.ofString("Action=DescribeVpcs&Version=2016-11-15&MaxResults=5")));
    }

    @Test
    void aStrictEc2ThrottleCarriesNoRetryAfterWhereLenientDid() {
        for (Realism r : Realism.values()) {
            try (CloudSim sim = start(r, new ManualClock(), ESTATE)) {
                assertThat(describeVpcs(sim).statusCode()).isEqualTo(200);
                assertThat(describeVpcs(sim).statusCode()).isEqualTo(200);
                HttpResponse<String> throttled = describeVpcs(sim);
                assertThat(throttled.statusCode()).isEqualTo(503);
                assertThat(throttled.body()).contains("<Code>RequestLimitExceeded</Code>");
                assertThat(throttled.headers().firstValue("Retry-After")).as(r.id())
                    .isEqualTo(r.strict() ? java.util.Optional.empty() : java.util.Optional.of("1"));
                // the SDK still classifies it as throttling
                try (Ec2Client ec2 = AwsClients.aimNoRetry(Ec2Client.builder(), sim, Region.US_EAST_1,
                    AwsClients.management()).build()) {
                    assertThatThrownBy(ec2::describeVpcs).isInstanceOfSatisfying(AwsServiceException.class,
                        e -> assertThat(e.isThrottlingException()).isTrue());
                }
            }
        }
    }

    @Test
    void lambdaKeepsItsRetryAfterInStrictBecauseItsModelCarriesOne() {
        try (CloudSim sim = start(Realism.STRICT, new ManualClock(), ESTATE);
             LambdaClient lambda = AwsClients.aimNoRetry(LambdaClient.builder(), sim, Region.US_EAST_1,
                 AwsClients.management()).build()) {
            lambda.listFunctions();
            assertThatThrownBy(lambda::listFunctions).isInstanceOfSatisfying(TooManyRequestsException.class, e -> {
                assertThat(e.isThrottlingException()).isTrue();
                assertThat(e.retryAfterSeconds()).isEqualTo("1");
            });
        }
    }

    @Test
    void strictServesUnpublishedLimitsAtCloudgsBuiltInRatesAndSaysSo() throws Exception {
        int strict = admittedAtOnce(Realism.STRICT);
        int lenient = admittedAtOnce(Realism.LENIENT);
        assertThat(strict).as("organizations: cloudg's built-in burst").isEqualTo(10);
        assertThat(lenient).as("the first table's burst").isEqualTo(20);

        try (CloudSim sim = start(Realism.STRICT, new ManualClock(), ESTATE)) {
            JsonNode table = new ObjectMapper().readTree(Http.get(URI.create(sim.awsEndpoint() + "/_sim/quotas")).body());
            assertThat(table.path("realism").asText()).isEqualTo("strict");
            JsonNode org = find(table, "aws", "organizations");
            assertThat(org.path("provenance").asText()).isEqualTo("guessed");
            assertThat(org.path("rate_per_second").asDouble()).isEqualTo(5);
            JsonNode ec2 = find(table, "aws", "ec2");
            assertThat(ec2.path("provenance").asText()).isEqualTo("documented");
            assertThat(ec2.path("source").asText()).contains("Request throttling");
            assertThat(find(table, "aws", "ec2.DescribeVpcs").path("provenance").asText()).isEqualTo("configured");
            assertThat(find(table, "aws", "s3.bucket_reads").path("rate_per_second").asDouble()).isEqualTo(5500);
            assertThat(find(table, "azure", "resource_graph").path("model").asText()).isEqualTo("fixed_window");
            assertThat(find(table, "gcp", "ListAssets.project").path("scope").asText()).contains("consumer");
            for (JsonNode e : table.path("quotas")) {
                assertThat(e.path("provenance").asText()).as(e.toString()).isIn("documented", "guessed", "configured");
                assertThat(e.path("source").asText()).isNotBlank();
            }
        }
    }

    private static JsonNode find(JsonNode table, String provider, String key) {
        for (JsonNode e : table.path("quotas")) {
            if (e.path("provider").asText().equals(provider) && e.path("key").asText().equals(key)) {
                return e;
            }
        }
        throw new AssertionError("no quota " + provider + "/" + key + " in " + table);
    }

    /** Organizations ListAccounts calls admitted on a clock that stands still. */
    private static int admittedAtOnce(Realism r) {
        try (CloudSim sim = start(r, new ManualClock(), ESTATE);
             OrganizationsClient org = AwsClients.aimNoRetry(OrganizationsClient.builder(), sim, Region.AWS_GLOBAL,
                 AwsClients.management()).build()) {
            return countUntilThrottled(() -> org.listAccounts().accounts().size());
        }
    }

    private static int countUntilThrottled(Supplier<Object> call) {
        for (int i = 0; i < 1000; i++) {
            try {
                call.get();
            } catch (AwsServiceException e) {
                assertThat(e.isThrottlingException()).isTrue();
                return i;
            }
        }
        throw new AssertionError("never throttled");
    }

    @Test
    void strictS3ChargesEachBucketAtItsPublishedRateAndListBucketsToTheAccount() {
        try (CloudSim sim = start(Realism.STRICT, new ManualClock(), ESTATE);
             S3Client s3 = AwsClients.aimNoRetry(S3Client.builder(), sim, Region.US_EAST_1, AwsClients.management())
                 .forcePathStyle(true).crossRegionAccessEnabled(true).build()) {
            var buckets = s3.listBuckets().buckets();
            assertThat(buckets).hasSize(2);
            for (var b : buckets) {
                s3.getBucketAcl(r -> r.bucket(b.name()));
                s3.getBucketAcl(r -> r.bucket(b.name()));
            }
            String account = sim.estate().aws().management().id();
            BucketStats list = sim.stats().bucket("aws/" + account + "/us-east-1/s3");
            assertThat(list.calls()).isEqualTo(1);
            assertThat(list.burst()).isEqualTo(40);
            for (var b : buckets) {
                BucketStats reads = sim.stats().bucket("aws/s3/" + b.name() + "/bucket_reads");
                assertThat(reads.calls()).isEqualTo(2);
                assertThat(reads.rate()).isEqualTo(5500);
            }
        }
    }

    @Test
    void ec2CanRefillInWholeSeconds() {
        ManualClock clock = new ManualClock();
        try (CloudSim sim = start(Realism.STRICT, clock, ESTATE.replace("quotas: {aws: {",
            "quotas: {aws: {ec2_refill: whole_second, "));
             Ec2Client ec2 = AwsClients.aimNoRetry(Ec2Client.builder(), sim, Region.US_EAST_1, AwsClients.management())
                 .build()) {
            ec2.describeVpcs(b -> b.maxResults(5));
            ec2.describeVpcs(b -> b.maxResults(5));
            clock.advance(Duration.ofMillis(999));
            assertThat(countUntilThrottled(() -> ec2.describeVpcs(b -> b.maxResults(5)))).as("after 0.999 s").isZero();
            clock.advance(Duration.ofMillis(1));
            assertThat(countUntilThrottled(() -> ec2.describeVpcs(b -> b.maxResults(5)))).as("after 1 s").isEqualTo(1);
        }
    }

    @Test
    void aStrictNeighbourSpendsBurstAtSeededMomentsWhileALenientOneOnlyTakesItsShare() {
        String yaml = ESTATE.replace("quotas: {aws: {services: {ec2.DescribeVpcs: {rate: 1, burst: 2}, lambda: {rate: 1, burst: 1}}}}",
            "quotas: {aws: {services: {ec2.DescribeVpcs: {rate: 1, burst: 50}}}}")
            + "noisy_neighbours: [{match: {provider: aws, service: ec2, operation: DescribeVpcs}, share: 0.2}]\n";
        double[] taken = new double[2];
        for (Realism r : Realism.values()) {
            ManualClock clock = new ManualClock();
            try (CloudSim sim = start(r, clock, yaml)) {
                assertThat(describeVpcs(sim).statusCode()).isEqualTo(200);
                clock.advance(Duration.ofMinutes(10));
                assertThat(describeVpcs(sim).statusCode()).isEqualTo(200);
                BucketStats b = sim.stats().bucket("aws/" + sim.estate().aws().management().id() + "/us-east-1/ec2/DescribeVpcs");
                taken[r.ordinal()] = b.neighbourTokens();
            }
        }
        // 10 minutes at 1/s: a steady 20% share is 120 tokens; strict's bursts (every 30 s on average, half of 50)
        // spend what the bucket holds on top of that
        assertThat(taken[Realism.LENIENT.ordinal()]).isEqualTo(120.0);
        assertThat(taken[Realism.STRICT.ordinal()]).isGreaterThan(200.0);
    }
}
