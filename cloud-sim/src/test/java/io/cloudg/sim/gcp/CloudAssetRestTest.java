package io.cloudg.sim.gcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.api.gax.core.NoCredentialsProvider;
import com.google.api.gax.rpc.ApiException;
import com.google.api.gax.rpc.FixedHeaderProvider;
import com.google.api.gax.rpc.ResourceExhaustedException;
import com.google.api.gax.rpc.StatusCode;
import com.google.cloud.asset.v1.Asset;
import com.google.cloud.asset.v1.AssetServiceClient;
import com.google.cloud.asset.v1.AssetServiceSettings;
import com.google.cloud.asset.v1.ContentType;
import com.google.cloud.asset.v1.ListAssetsRequest;
import com.google.cloud.asset.v1.ResourceSearchResult;
import com.google.cloud.asset.v1.SearchAllResourcesRequest;
import com.google.protobuf.FieldMask;
import io.cloudg.sim.CloudSim;
import io.cloudg.sim.Http;
import io.cloudg.sim.SimOptions;
import io.cloudg.sim.config.EstateSpec;
import io.cloudg.sim.core.ManualClock;
import io.cloudg.sim.estate.GcpProject;
import io.cloudg.sim.quota.BucketStats;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Cloud Asset's REST binding ({@code https://cloudasset.googleapis.com/v1/...}) with the real client's REST
 * transport ({@code AssetServiceSettings.newHttpJsonBuilder()}, gax-httpjson) and with raw HTTP: the same
 * listings, pages, quotas and errors as over gRPC.
 */
class CloudAssetRestTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static CloudSim sim;
    static AssetServiceClient rest;

    @BeforeAll
    static void start() throws Exception {
        // a clock that stands still: buckets never refill, so what a test spends it keeps spent
        sim = CloudSim.start(SimOptions.builder().seed(11).clock(new ManualClock()).estate(EstateSpec.fromYaml("""
            aws: {accounts: 1, regions: [us-east-1], resources: {}}
            gcp:
              projects: 3
              locations: [us-central1, europe-west1]
              resources: {compute.googleapis.com/Instance: 210, storage.googleapis.com/Bucket: 3}
            quotas: {gcp: {ListAssets: {project_per_minute: 1000, organization_per_minute: 1000},
                           SearchAllResources: {project_per_minute: 1000, organization_per_minute: 1000}}}
            """)).build());
        rest = restClient(sim, null);
    }

    static AssetServiceClient restClient(CloudSim s, String quotaProject) throws Exception {
        AssetServiceSettings.Builder b = AssetServiceSettings.newHttpJsonBuilder()
            .setEndpoint(s.gcpRestEndpoint().toString())
            .setCredentialsProvider(NoCredentialsProvider.create());
        if (quotaProject != null) {
            b.setHeaderProvider(FixedHeaderProvider.create("x-goog-user-project", quotaProject));
        }
        return AssetServiceClient.create(b.build());
    }

    @AfterAll
    static void stop() {
        rest.close();
        sim.close();
    }

    static String org() {
        return "organizations/" + sim.estate().gcp().organization();
    }

    static Set<String> truth(java.util.function.Predicate<io.cloudg.sim.estate.Asset> p) {
        return sim.truth().select(a -> a.provider().equals("gcp") && p.test(a)).stream().map(io.cloudg.sim.estate.Asset::id)
            .collect(Collectors.toSet());
    }

    @Test
    void listAssetsOverRestPagesThroughAProjectAndTheOrganization() {
        GcpProject p = sim.estate().gcp().projects().get(0);
        var pages = rest.listAssets(ListAssetsRequest.newBuilder().setParent("projects/" + p.id()).setPageSize(50)
            .setContentType(ContentType.RESOURCE).build());
        assertThat(pages.getPage().getPageElementCount()).isEqualTo(50);
        List<Asset> assets = StreamSupport.stream(pages.iterateAll().spliterator(), false).toList();
        assertThat(assets.stream().map(Asset::getName).collect(Collectors.toSet()))
            .isEqualTo(truth(a -> a.account().equals(p.id()))).hasSize(assets.size()).hasSize(214);
        assertThat(assets).allSatisfy(a -> assertThat(a.getResource().getLocation()).isNotEmpty());
        List<String> all = StreamSupport.stream(rest.listAssets(ListAssetsRequest.newBuilder().setParent(org())
            .setPageSize(1000).addAssetTypes("storage.googleapis.com/Bucket").build()).iterateAll().spliterator(), false)
            .map(Asset::getName).toList();
        assertThat(all).hasSize(9).allSatisfy(n -> assertThat(n).startsWith("//storage.googleapis.com/"));
    }

    @Test
    void searchAllResourcesOverRestPagesThroughTheOrganization() {
        List<String> names = StreamSupport.stream(rest.searchAllResources(SearchAllResourcesRequest.newBuilder()
            .setScope(org()).setPageSize(200).build()).iterateAll().spliterator(), false)
            .map(ResourceSearchResult::getName).toList();
        assertThat(new HashSet<>(names)).isEqualTo(truth(a -> true)).hasSize(names.size());
    }

    /** SearchAllResources: above 500 is capped at 500; zero or less is the server's default (100). */
    @Test
    void searchPageSizeIsCappedAt500AndZeroOrLessMeansTheDefaultOverBothTransports() throws Exception {
        try (ClientPair clients = new ClientPair(sim)) {
            for (AssetServiceClient c : clients.both()) {
                assertThat(firstPage(c, 600)).as("600 is capped").isEqualTo(500);
                assertThat(firstPage(c, 500)).isEqualTo(500);
                assertThat(firstPage(c, 0)).as("zero: the default").isEqualTo(GcpAssetService.SEARCH_DEFAULT_PAGE);
                assertThat(firstPage(c, -7)).as("negative: the default").isEqualTo(GcpAssetService.SEARCH_DEFAULT_PAGE);
            }
        }
        HttpResponse<String> raw = Http.get(URI.create(sim.gcpRestEndpoint() + "/v1/" + org()
            + ":searchAllResources?pageSize=9999"));
        assertThat(raw.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(raw.body()).path("results")).hasSize(500);
    }

    static int firstPage(AssetServiceClient c, int size) {
        return c.searchAllResources(SearchAllResourcesRequest.newBuilder().setScope(org()).setPageSize(size).build())
            .getPage().getPageElementCount();
    }

    @Test
    void readMaskKeepsOnlyTheFieldsItNamesOverBothTransports() throws Exception {
        try (ClientPair clients = new ClientPair(sim)) {
            for (AssetServiceClient c : clients.both()) {
                List<ResourceSearchResult> masked = c.searchAllResources(SearchAllResourcesRequest.newBuilder()
                    .setScope(org()).setPageSize(20).setReadMask(FieldMask.newBuilder().addPaths("name")
                        .addPaths("display_name").addPaths("asset_type")).build()).getPage().getResponse().getResultsList();
                assertThat(masked).hasSize(20).allSatisfy(r -> {
                    assertThat(r.getName()).isNotEmpty();
                    assertThat(r.getDisplayName()).isNotEmpty();
                    assertThat(r.getAssetType()).isNotEmpty();
                    assertThat(r.toBuilder().clearName().clearDisplayName().clearAssetType().build())
                        .as("nothing outside the mask").isEqualTo(ResourceSearchResult.getDefaultInstance());
                });
                ResourceSearchResult everything = c.searchAllResources(SearchAllResourcesRequest.newBuilder()
                    .setScope(org()).setPageSize(1).setReadMask(FieldMask.newBuilder().addPaths("*")).build())
                    .getPage().getResponse().getResults(0);
                assertThat(everything.getLocation()).isNotEmpty();
                assertThat(everything.getOrganization()).isEqualTo(org());
                assertThatThrownBy(() -> c.searchAllResources(SearchAllResourcesRequest.newBuilder().setScope(org())
                    .setReadMask(FieldMask.newBuilder().addPaths("no_such_field")).build()).getPage())
                    .isInstanceOfSatisfying(ApiException.class, e -> {
                        assertThat(e.getStatusCode().getCode()).isEqualTo(StatusCode.Code.INVALID_ARGUMENT);
                        assertThat(e.getMessage()).contains("no_such_field");
                    });
            }
        }
        // the JSON form on the wire: camelCase paths, comma-separated
        HttpResponse<String> raw = Http.get(URI.create(sim.gcpRestEndpoint() + "/v1/" + org()
            + ":searchAllResources?pageSize=3&readMask=name,displayName"));
        assertThat(raw.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(raw.body()).path("results")).hasSize(3).allSatisfy(r ->
            assertThat(r.fieldNames()).toIterable().containsExactlyInAnyOrder("name", "displayName"));
    }

    @Test
    void theRestErrorBodyIsGooglesJsonErrorAndAnUnknownParameterIsNamed() throws Exception {
        HttpResponse<String> unknown = Http.get(URI.create(sim.gcpRestEndpoint() + "/v1/" + org() + "/assets?colour=red"));
        assertThat(unknown.statusCode()).isEqualTo(400);
        JsonNode e = JSON.readTree(unknown.body()).path("error");
        assertThat(e.path("code").asInt()).isEqualTo(400);
        assertThat(e.path("status").asText()).isEqualTo("INVALID_ARGUMENT");
        assertThat(e.path("message").asText()).contains("\"colour\"");
        assertThat(unknown.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith(
            "application/json"));

        HttpResponse<String> partial = Http.get(URI.create(sim.gcpRestEndpoint() + "/v1/" + org() + "/assets?fields=assets"));
        assertThat(partial.statusCode()).as("partial responses are refused, not ignored").isEqualTo(400);
        assertThat(JSON.readTree(partial.body()).path("error").path("message").asText()).contains("'fields'");

        HttpResponse<String> denied = Http.get(URI.create(sim.gcpRestEndpoint() + "/v1/projects/nobody/assets"));
        assertThat(denied.statusCode()).isEqualTo(403);
        assertThat(JSON.readTree(denied.body()).path("error").path("status").asText()).isEqualTo("PERMISSION_DENIED");

        HttpResponse<String> export = Http.send(HttpRequest.newBuilder(URI.create(sim.gcpRestEndpoint() + "/v1/" + org()
            + ":exportAssets")).POST(HttpRequest.BodyPublishers.ofString("{}")));
        assertThat(export.statusCode()).as("a method cloud-sim does not serve").isEqualTo(501);
        assertThat(JSON.readTree(export.body()).path("error").path("status").asText()).isEqualTo("UNIMPLEMENTED");

        // snake_case names, repeated fields and enum names bind like their JSON forms
        GcpProject p = sim.estate().gcp().projects().get(1);
        HttpResponse<String> ok = Http.get(URI.create(sim.gcpRestEndpoint() + "/v1/projects/" + p.id()
            + "/assets?asset_types=storage.googleapis.com/Bucket&assetTypes=cloudresourcemanager.googleapis.com/Project"
            + "&content_type=RESOURCE&page_size=2"));
        assertThat(ok.statusCode()).isEqualTo(200);
        JsonNode body = JSON.readTree(ok.body());
        assertThat(body.path("assets")).hasSize(2);
        assertThat(body.path("nextPageToken").asText()).isNotEmpty();
        assertThat(body.path("assets").get(0).path("resource").path("location").asText()).isNotEmpty();
    }

    /**
     * Strict quotas over REST: charged to the {@code x-goog-user-project} consumer, shared with gRPC, and a
     * throttled call is HTTP 429 with Google's error body (RESOURCE_EXHAUSTED, ErrorInfo RATE_LIMIT_EXCEEDED),
     * which the REST transport turns into the same {@link ResourceExhaustedException} as gRPC.
     */
    @Test
    void aThrottledRestCallIs429WithTheRpcErrorBodyAndTheClientSeesResourceExhausted() throws Exception {
        ManualClock clock = new ManualClock();
        try (CloudSim strict = CloudSim.start(SimOptions.builder().seed(7).clock(clock).estate(EstateSpec.fromYaml("""
            realism: strict
            churn: {created: 0, deleted: 0}
            aws: {accounts: 1, regions: [us-east-1], resources: {}}
            gcp: {projects: 3, resources: {compute.googleapis.com/Instance: 2}}
            quotas: {gcp: {ListAssets: {project_per_minute: 3, organization_per_minute: 100}}}
            """)).build())) {
            GcpProject consumer = strict.estate().gcp().projects().get(2);
            GcpProject target = strict.estate().gcp().projects().get(1);
            ListAssetsRequest req = ListAssetsRequest.newBuilder().setParent("projects/" + target.id()).build();
            try (AssetServiceClient c = restClient(strict, consumer.id());
                 ClientPair grpc = new ClientPair(strict)) {
                c.listAssets(req).getPage();
                grpc.grpc.listAssetsPagedCallable().call(req, com.google.api.gax.grpc.GrpcCallContext.createDefault()
                    .withExtraHeaders(java.util.Map.of("x-goog-user-project", List.of(consumer.id()))));
                c.listAssets(req).getPage();
                assertThatThrownBy(() -> c.listAssets(req).getPage()).as("REST and gRPC share the consumer's 3 a minute")
                    .isInstanceOfSatisfying(ResourceExhaustedException.class, e -> {
                        assertThat(e.getReason()).isEqualTo("RATE_LIMIT_EXCEEDED");
                        assertThat(e.getDomain()).isEqualTo("googleapis.com");
                        assertThat(e.getMetadata()).containsEntry("consumer", "projects/" + consumer.number())
                            .containsEntry("quota_limit_value", "3");
                    });
            }
            BucketStats b = strict.stats().bucket("gcp/projects/" + consumer.id() + "/cloudasset/ListAssets");
            assertThat(b.admitted()).isEqualTo(3);
            assertThat(b.throttled()).isEqualTo(1);

            HttpResponse<String> raw = Http.send(HttpRequest.newBuilder(URI.create(strict.gcpRestEndpoint()
                + "/v1/projects/" + target.id() + "/assets")).header("x-goog-user-project", consumer.id()).GET());
            assertThat(raw.statusCode()).isEqualTo(429);
            JsonNode error = JSON.readTree(raw.body()).path("error");
            assertThat(error.path("code").asInt()).isEqualTo(429);
            assertThat(error.path("status").asText()).isEqualTo("RESOURCE_EXHAUSTED");
            assertThat(error.path("message").asText()).startsWith("Quota exceeded for quota metric "
                + "'cloudasset.googleapis.com/list_assets_requests'");
            assertThat(error.path("details")).hasSize(1);
            JsonNode info = error.path("details").get(0);
            assertThat(info.path("@type").asText()).isEqualTo("type.googleapis.com/google.rpc.ErrorInfo");
            assertThat(info.path("reason").asText()).isEqualTo("RATE_LIMIT_EXCEEDED");
            assertThat(info.path("metadata").path("quota_limit").asText()).isEqualTo("ListAssetsRequestsPerMinutePerProject");

            GcpProject other = strict.estate().gcp().projects().get(0);
            assertThat(Http.get(URI.create(strict.gcpRestEndpoint() + "/v1/projects/" + target.id() + "/assets?$userProject="
                + other.id())).statusCode()).as("the $userProject parameter names the consumer too").isEqualTo(200);
            assertThat(strict.stats().bucket("gcp/projects/" + other.id() + "/cloudasset/ListAssets").calls()).isEqualTo(1);

            clock.advance(java.time.Duration.ofMinutes(1));
            assertThat(Http.send(HttpRequest.newBuilder(URI.create(strict.gcpRestEndpoint() + "/v1/projects/"
                + target.id() + "/assets")).header("x-goog-user-project", consumer.id()).GET()).statusCode())
                .as("the next minute").isEqualTo(200);
        }
    }

    /**
     * A Project asset (ListAssets, content RESOURCE) as Cloud Asset reports one: Resource Manager v1's
     * discovery document and REST URL, the organization as parent, and in {@code data} the project's number
     * (a string, as Resource Manager's JSON has it), id, lifecycle state, name and parent; over both transports.
     */
    @Test
    void aProjectAssetCarriesTheFieldsOfARealOne() throws Exception {
        GcpProject p = sim.estate().gcp().projects().get(2);
        String orgNumber = sim.estate().gcp().organization();
        HttpResponse<String> raw = Http.get(URI.create(sim.gcpRestEndpoint() + "/v1/projects/" + p.id()
            + "/assets?assetTypes=cloudresourcemanager.googleapis.com/Project&contentType=RESOURCE"));
        assertThat(raw.statusCode()).isEqualTo(200);
        JsonNode asset = JSON.readTree(raw.body()).path("assets").get(0);
        assertThat(asset.path("name").asText()).isEqualTo("//cloudresourcemanager.googleapis.com/projects/" + p.number());
        assertThat(asset.path("assetType").asText()).isEqualTo("cloudresourcemanager.googleapis.com/Project");
        assertThat(asset.path("ancestors")).extracting(JsonNode::asText)
            .containsExactly("projects/" + p.number(), "organizations/" + orgNumber);
        JsonNode r = asset.path("resource");
        assertThat(r.path("version").asText()).isEqualTo("v1");
        assertThat(r.path("discoveryDocumentUri").asText())
            .isEqualTo("https://cloudresourcemanager.googleapis.com/$discovery/rest");
        assertThat(r.path("discoveryName").asText()).isEqualTo("Project");
        assertThat(r.path("resourceUrl").asText()).isEqualTo("https://cloudresourcemanager.googleapis.com/v1/projects/" + p.id());
        assertThat(r.path("parent").asText()).isEqualTo("//cloudresourcemanager.googleapis.com/organizations/" + orgNumber);
        assertThat(r.path("location").asText()).isEqualTo("global");
        JsonNode data = r.path("data");
        assertThat(data.path("projectNumber").isTextual()).isTrue();
        assertThat(data.path("projectNumber").asText()).isEqualTo(Long.toString(p.number()));
        assertThat(data.path("projectId").asText()).isEqualTo(p.id());
        assertThat(data.path("lifecycleState").asText()).isEqualTo("ACTIVE");
        assertThat(data.path("name").asText()).isEqualTo(p.displayName());
        assertThat(data.path("createTime").asText()).matches("\\d{4}-\\d\\d-\\d\\dT.*Z");
        assertThat(data.path("parent").path("type").asText()).isEqualTo("organization");
        assertThat(data.path("parent").path("id").asText()).isEqualTo(orgNumber);

        try (ClientPair clients = new ClientPair(sim)) {
            Asset overGrpc = clients.grpc.listAssets(ListAssetsRequest.newBuilder().setParent("projects/" + p.id())
                .addAssetTypes("cloudresourcemanager.googleapis.com/Project").setContentType(ContentType.RESOURCE).build())
                .getPage().getValues().iterator().next();
            assertThat(overGrpc.getResource().getResourceUrl()).isEqualTo(r.path("resourceUrl").asText());
            assertThat(overGrpc.getResource().getData().getFieldsOrThrow("projectNumber").getStringValue())
                .isEqualTo(Long.toString(p.number()));
            ResourceSearchResult found = clients.grpc.searchAllResources(SearchAllResourcesRequest.newBuilder()
                .setScope("projects/" + p.id()).addAssetTypes("cloudresourcemanager.googleapis.com/Project").build())
                .getPage().getValues().iterator().next();
            assertThat(found.getAdditionalAttributes().getFieldsOrThrow("projectId").getStringValue()).isEqualTo(p.id());
        }
    }

    /** A gRPC client and a REST client of one simulator. */
    static final class ClientPair implements AutoCloseable {
        final io.grpc.ManagedChannel channel;
        final AssetServiceClient grpc;
        final AssetServiceClient rest;

        ClientPair(CloudSim s) throws Exception {
            channel = io.grpc.ManagedChannelBuilder.forTarget(s.gcpTarget()).usePlaintext().build();
            grpc = AssetServiceClient.create(AssetServiceSettings.newBuilder()
                .setCredentialsProvider(NoCredentialsProvider.create())
                .setTransportChannelProvider(com.google.api.gax.rpc.FixedTransportChannelProvider.create(
                    com.google.api.gax.grpc.GrpcTransportChannel.create(channel))).build());
            rest = restClient(s, null);
        }

        List<AssetServiceClient> both() {
            return List.of(grpc, rest);
        }

        @Override
        public void close() throws Exception {
            grpc.close();
            rest.close();
            channel.shutdownNow().awaitTermination(5, java.util.concurrent.TimeUnit.SECONDS);
        }
    }
}
