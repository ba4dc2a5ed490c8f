package io.cloudg.sim;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cloudg.sim.aws.AwsClients;
import io.cloudg.sim.config.EstateSpec;
import io.cloudg.sim.estate.Asset;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.ec2.Ec2Client;

class AdminRoutesTest {
    static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void truthAndStatsAreServedAsJson() throws Exception {
        try (CloudSim sim = CloudSim.start(SimOptions.builder().estate(EstateSpec.defaultEstate()).build())) {
            HttpResponse<String> r = Http.get(URI.create(sim.awsEndpoint() + "/_sim/truth"));
            assertThat(r.statusCode()).isEqualTo(200);
            JsonNode assets = JSON.readTree(r.body()).get("assets");
            Set<Asset> served = new HashSet<>();
            for (JsonNode a : assets) {
                served.add(new Asset(a.get("provider").asText(), a.get("account").asText(), a.get("region").asText(),
                    a.get("service").asText(), a.get("type").asText(), a.get("id").asText(),
                    a.get("arn").isNull() ? null : a.get("arn").asText()));
            }
            assertThat(served).isEqualTo(new HashSet<>(sim.truth().assets()));
            assertThat(served.stream().map(Asset::provider).distinct()).containsExactlyInAnyOrder("aws", "azure", "gcp");

            try (Ec2Client ec2 = AwsClients.aim(Ec2Client.builder(), sim, Region.EU_WEST_1, AwsClients.management()).build()) {
                ec2.describeVpcs();
                ec2.describeVpcs();
            }
            JsonNode stats = JSON.readTree(Http.get(URI.create(sim.awsEndpoint() + "/_sim/stats")).body());
            String key = "aws/" + sim.estate().aws().management().id() + "/eu-west-1/ec2/DescribeVpcs";
            JsonNode bucket = null;
            for (JsonNode b : stats.get("buckets")) {
                if (b.get("key").asText().equals(key)) {
                    bucket = b;
                }
            }
            assertThat(bucket).as(key).isNotNull();
            assertThat(bucket.get("calls").asLong()).isEqualTo(2);
            assertThat(bucket.get("throttled").asLong()).isZero();
            assertThat(bucket.get("maxAdmittedPerSecond").asLong()).isBetween(1L, 2L);
            assertThat(bucket.get("rate").asDouble()).isEqualTo(20.0);
            assertThat(bucket.get("burst").asDouble()).isEqualTo(100.0);
            assertThat(bucket.get("emptySeconds").asDouble()).as("two calls never empty a bucket of 100").isZero();
            assertThat(bucket.get("longestEmptySeconds").asDouble()).isZero();
            assertThat(stats.get("totals").get("calls").asLong()).isEqualTo(2);

            HttpResponse<String> put = Http.send(HttpRequest.newBuilder(URI.create(sim.awsEndpoint() + "/_sim/faults"))
                .PUT(HttpRequest.BodyPublishers.ofString("faults: [{error: nope}]")));
            assertThat(put.statusCode()).isEqualTo(400);
            assertThat(put.body()).contains("faults[0].error");
            assertThat(Http.get(URI.create(sim.awsEndpoint() + "/_sim/nothing")).statusCode()).isEqualTo(404);
        }
    }

    @Test
    void theTruthMarksChurnedAssetsAndCountsThemAndCanBeSliced() throws Exception {
        try (CloudSim sim = CloudSim.start(SimOptions.builder().seed(2).estate(EstateSpec.fromYaml("""
            realism: strict
            churn: {created: 0.1, deleted: 0.1, until: 90s}
            """)).build())) {
            JsonNode t = JSON.readTree(Http.get(URI.create(sim.awsEndpoint() + "/_sim/truth")).body());
            assertThat(t.path("realism").asText()).isEqualTo("strict");
            assertThat(t.path("churn").path("until_ms").asLong()).isEqualTo(90_000);
            long churned = 0;
            for (JsonNode a : t.path("assets")) {
                if (a.has("churn")) {
                    churned++;
                    assertThat(a.path("churn").path("kind").asText()).isIn("created", "deleted");
                    assertThat(a.path("churn").path("at_ms").asLong()).isBetween(0L, 90_000L);
                }
            }
            assertThat(churned).isPositive().isEqualTo(sim.truth().churned().size());
            assertThat(t.path("counts").path("churned").asLong()).isEqualTo(churned);
            assertThat(t.path("counts").path("stable").asLong()).isEqualTo(sim.truth().stable().size());
            assertThat(t.path("counts").path("assets").asLong()).isEqualTo(t.path("assets").size());

            String account = sim.estate().aws().accounts().get(1).id();
            JsonNode slice = JSON.readTree(Http.get(URI.create(sim.awsEndpoint() + "/_sim/truth?provider=aws&account="
                + account)).body());
            assertThat(slice.path("assets").size()).isPositive()
                .isEqualTo(sim.truth().select(a -> a.account().equals(account)).size());
            for (JsonNode a : slice.path("assets")) {
                assertThat(a.path("account").asText()).isEqualTo(account);
            }
        }
    }
}
