package io.cloudg.sim;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.resourcemanager.resources.models.GenericResource;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.api.gax.core.NoCredentialsProvider;
import com.google.api.gax.grpc.GrpcTransportChannel;
import com.google.api.gax.rpc.FixedTransportChannelProvider;
import com.google.cloud.asset.v1.AssetServiceClient;
import com.google.cloud.asset.v1.AssetServiceSettings;
import com.google.cloud.asset.v1.SearchAllResourcesRequest;
import io.cloudg.sim.aws.AwsClients;
import io.cloudg.sim.config.EstateSpec;
import io.cloudg.sim.estate.Asset;
import io.cloudg.sim.estate.AwsAccount;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import java.net.URI;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.model.Tag;
import software.amazon.awssdk.services.sts.StsClient;

/**
 * Estate generations: two maps of generations N and N+1 made with the real SDKs differ exactly by the change
 * the truth announces.
 */
class GenerationsTest {
    static final String ESTATE = """
        realism: strict
        churn: {created: 0, deleted: 0}
        quotas: {enabled: false}
        aws: {accounts: 2, regions: [us-east-1], resources: {AWS::EC2::VPC: 12, AWS::EC2::Instance: 12, AWS::EC2::Subnet: 4}}
        azure: {subscriptions: 1, resource_groups: 2, resources: {Microsoft.Compute/virtualMachines: 12}}
        gcp: {projects: 2, resources: {compute.googleapis.com/Instance: 8}}
        generation_changes: {added: 0.2, removed: 0.2, modified: 0.3}
        """;

    static CloudSim start(int generation) {
        return CloudSim.start(SimOptions.builder().seed(31).estate(EstateSpec.fromYaml(ESTATE + "generation: "
            + generation + "\n")).build());
    }

    /** What a collector sees: key -> tags (env only), for EC2 VPCs and instances, ARM resources and GCP assets. */
    static Map<String, Map<String, String>> map(CloudSim sim) throws Exception {
        Map<String, Map<String, String>> out = new TreeMap<>();
        try (StsClient sts = AwsClients.aim(StsClient.builder(), sim, Region.US_EAST_1, AwsClients.management()).build()) {
            for (AwsAccount a : sim.estate().aws().accounts()) {
                var creds = a.management() ? AwsClients.management() : AwsClients.of(sts.assumeRole(b -> b.roleArn(
                    "arn:aws:iam::" + a.id() + ":role/OrganizationAccountAccessRole").roleSessionName("gen")).credentials());
                try (Ec2Client ec2 = AwsClients.aim(Ec2Client.builder(), sim, Region.US_EAST_1, creds).build()) {
                    ec2.describeVpcsPaginator(b -> b.maxResults(5)).vpcs().forEach(v -> out.put(
                        "aws|" + a.id() + "|us-east-1|AWS::EC2::VPC|" + v.vpcId(), env(v.tags())));
                    ec2.describeInstancesPaginator(b -> b.maxResults(5)).reservations().forEach(r -> r.instances().forEach(
                        i -> out.put("aws|" + a.id() + "|us-east-1|AWS::EC2::Instance|" + i.instanceId(), env(i.tags()))));
                }
            }
        }
        String sub = sim.estate().azure().subscriptions().get(0).id();
        for (GenericResource r : io.cloudg.sim.azure.AzureClients.arm(sim, sub).genericResources().list()) {
            Map<String, String> env = r.tags().containsKey("env") ? Map.of("env", r.tags().get("env")) : Map.of();
            out.put("azure|" + sub + "|" + r.regionName() + "|" + r.type() + "|" + r.id(), env);
        }
        ManagedChannel channel = ManagedChannelBuilder.forTarget(sim.gcpTarget()).usePlaintext().build();
        try (AssetServiceClient gcp = AssetServiceClient.create(AssetServiceSettings.newBuilder()
            .setCredentialsProvider(NoCredentialsProvider.create())
            .setTransportChannelProvider(FixedTransportChannelProvider.create(GrpcTransportChannel.create(channel))).build())) {
            gcp.searchAllResources(SearchAllResourcesRequest.newBuilder().setScope("organizations/"
                + sim.estate().gcp().organization()).addAssetTypes("compute.googleapis.com/Instance").build()).iterateAll()
                .forEach(r -> out.put("gcp|" + project(sim, r.getProject()) + "|" + r.getLocation() + "|" + r.getAssetType()
                    + "|" + r.getName(), r.getLabelsMap().containsKey("env") ? Map.of("env", r.getLabelsMap().get("env"))
                    : Map.of()));
        } finally {
            channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
        return out;
    }

    private static String project(CloudSim sim, String projectsNumber) {
        return sim.estate().gcp().project(projectsNumber.substring("projects/".length())).id();
    }

    private static Map<String, String> env(List<Tag> tags) {
        return tags.stream().filter(t -> t.key().equals("env")).collect(Collectors.toMap(Tag::key, Tag::value));
    }

    static boolean mapped(Asset a) {
        return a.type().equals("AWS::EC2::VPC") || a.type().equals("AWS::EC2::Instance")
            || a.type().equals("Microsoft.Compute/virtualMachines") || a.type().equals("compute.googleapis.com/Instance");
    }

    @Test
    void twoMapsOfConsecutiveGenerationsDifferExactlyByTheAnnouncedChange() throws Exception {
        Map<String, Map<String, String>> before;
        try (CloudSim g1 = start(1)) {
            before = map(g1);
        }
        try (CloudSim g2 = start(2)) {
            Map<String, Map<String, String>> after = map(g2);
            Set<String> added = new HashSet<>(after.keySet());
            added.removeAll(before.keySet());
            Set<String> removed = new HashSet<>(before.keySet());
            removed.removeAll(after.keySet());
            Map<String, String> modified = new HashMap<>();
            for (String k : after.keySet()) {
                if (before.containsKey(k) && !before.get(k).equals(after.get(k))) {
                    modified.put(k, after.get(k).get("env"));
                }
            }
            Changes truth = g2.changes();
            assertThat(truth.fromGeneration()).isEqualTo(1);
            assertThat(truth.toGeneration()).isEqualTo(2);
            assertThat(added).isNotEmpty().isEqualTo(keys(truth.added()));
            assertThat(removed).isNotEmpty().isEqualTo(keys(truth.removed()));
            Map<String, String> announced = new HashMap<>();
            for (Changes.Change c : truth.changed()) {
                if (mapped(c.asset())) {
                    assertThat(c.fields()).containsExactly("tags.env");
                    assertThat(c.after().get("tags.env")).isEqualTo("gen-2");
                    assertThat(c.before().get("tags.env")).isIn(null, "gen-1");
                    announced.put(c.asset().key(), c.after().get("tags.env"));
                }
            }
            assertThat(modified).isNotEmpty().isEqualTo(announced);
            assertThat(modified.keySet()).anyMatch(k -> k.startsWith("aws|")).anyMatch(k -> k.startsWith("azure|"))
                .anyMatch(k -> k.startsWith("gcp|"));
        }
    }

    private static Set<String> keys(List<Asset> assets) {
        return assets.stream().filter(GenerationsTest::mapped).map(Asset::key).collect(Collectors.toSet());
    }

    @Test
    void changesComposeAcrossGenerationsAndAreServedWithTheTruth() throws Exception {
        try (CloudSim g0 = start(0); CloudSim g2 = start(2)) {
            Set<String> zero = g0.truth().assets().stream().map(Asset::key).collect(Collectors.toSet());
            Set<String> two = g2.truth().assets().stream().map(Asset::key).collect(Collectors.toSet());
            Changes since0 = g2.changes(0);
            Set<String> expected = new HashSet<>(zero);
            expected.removeAll(allKeys(since0.removed()));
            expected.addAll(allKeys(since0.added()));
            assertThat(two).isEqualTo(expected);
            assertThat(g0.changes().none()).as("generation 0 has nothing before it").isTrue();
            assertThat(g2.changes(2).none()).isTrue();
            assertThat(g2.truth().assets()).anyMatch(a -> "gen-2".equals(a.tags().get("env")))
                .anyMatch(a -> "gen-1".equals(a.tags().get("env")));
            assertThat(g0.truth().assets()).allMatch(a -> a.tags().isEmpty());
            assertThat(g2.truth().select(a -> a.type().startsWith("AWS::Organizations"))).hasSize(2)
                .as("accounts are never generated away");

            ObjectMapper json = new ObjectMapper();
            JsonNode t = json.readTree(Http.get(URI.create(g2.awsEndpoint() + "/_sim/truth")).body());
            assertThat(t.path("generation").asInt()).isEqualTo(2);
            assertThat(t.path("changes").path("from_generation").asInt()).isEqualTo(1);
            assertThat(t.path("changes").path("changed").size()).isEqualTo(g2.changes().changed().size());
            JsonNode c = t.path("changes").path("changed").get(0);
            assertThat(c.path("fields").get(0).asText()).isEqualTo("tags.env");
            assertThat(c.path("after").path("tags.env").asText()).isEqualTo("gen-2");
            assertThat(c.path("asset").path("tags").path("env").asText()).isEqualTo("gen-2");
            JsonNode from0 = json.readTree(Http.get(URI.create(g2.awsEndpoint() + "/_sim/changes?from=0")).body());
            assertThat(from0.path("added").size()).isEqualTo(since0.added().size());
            assertThat(from0.path("removed").size()).isEqualTo(since0.removed().size());
            assertThat(Http.get(URI.create(g2.awsEndpoint() + "/_sim/changes?from=-1")).statusCode()).isEqualTo(400);
            assertThat(json.readTree(Http.get(URI.create(g0.awsEndpoint() + "/_sim/truth")).body()).has("changes"))
                .isFalse();
        }
    }

    private static Set<String> allKeys(List<Asset> assets) {
        return assets.stream().map(Asset::key).collect(Collectors.toSet());
    }
}
