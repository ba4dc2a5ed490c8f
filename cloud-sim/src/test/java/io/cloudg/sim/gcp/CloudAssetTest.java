package io.cloudg.sim.gcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.api.gax.core.NoCredentialsProvider;
import com.google.api.gax.grpc.GrpcTransportChannel;
import com.google.api.gax.rpc.ApiException;
import com.google.api.gax.rpc.FixedTransportChannelProvider;
import com.google.api.gax.rpc.ResourceExhaustedException;
import com.google.api.gax.rpc.StatusCode;
import com.google.cloud.asset.v1.AssetServiceClient;
import com.google.cloud.asset.v1.AssetServiceSettings;
import com.google.cloud.asset.v1.ContentType;
import com.google.cloud.asset.v1.ListAssetsRequest;
import com.google.cloud.asset.v1.SearchAllResourcesRequest;
import com.google.rpc.ErrorInfo;
import io.cloudg.sim.estate.Asset;
import io.cloudg.sim.CloudSim;
import io.cloudg.sim.SimOptions;
import io.cloudg.sim.config.EstateSpec;
import io.cloudg.sim.config.FaultSpec;
import io.cloudg.sim.core.ManualClock;
import io.cloudg.sim.estate.GcpProject;
import io.cloudg.sim.quota.BucketStats;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The real google-cloud-asset client over gRPC against the simulator. */
class CloudAssetTest {
    static CloudSim sim;
    static ManagedChannel channel;
    static AssetServiceClient client;

    @BeforeAll
    static void start() throws Exception {
        // a clock that stands still: buckets never refill, so throttling is exact whatever the machine's speed
        sim = CloudSim.start(SimOptions.builder().seed(5).clock(new ManualClock()).estate(EstateSpec.fromYaml("""
            aws: {accounts: 1, regions: [us-east-1], resources: {}}
            gcp:
              projects: 3
              locations: [us-central1, europe-west1]
              resources: {compute.googleapis.com/Instance: 4, storage.googleapis.com/Bucket: 2,
                          iam.googleapis.com/ServiceAccount: 1, container.googleapis.com/Cluster: 1}
            quotas: {gcp: {ListAssets: {project_per_minute: 30, organization_per_minute: 40}}}
            """)).build());
        channel = ManagedChannelBuilder.forTarget(sim.gcpTarget()).usePlaintext().build();
        client = AssetServiceClient.create(AssetServiceSettings.newBuilder()
            .setCredentialsProvider(NoCredentialsProvider.create())
            .setTransportChannelProvider(FixedTransportChannelProvider.create(GrpcTransportChannel.create(channel)))
            .build());
    }

    @AfterAll
    static void stop() throws Exception {
        client.close();
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        sim.close();
    }

    @Test
    void listAssetsPagesThroughEachProjectAndTheOrganization() {
        for (GcpProject p : sim.estate().gcp().projects()) {
            List<String> names = StreamSupport.stream(client.listAssets(ListAssetsRequest.newBuilder()
                .setParent("projects/" + p.id()).setPageSize(3).setContentType(ContentType.RESOURCE).build())
                .iterateAll().spliterator(), false).map(a -> a.getName()).toList();
            assertThat(new HashSet<>(names)).isEqualTo(truth(a -> a.account().equals(p.id()))).hasSize(names.size());
            // by number too
            assertThat(client.listAssets(ListAssetsRequest.newBuilder().setParent("projects/" + p.number()).build())
                .iterateAll()).hasSize(names.size());
        }
        String org = "organizations/" + sim.estate().gcp().organization();
        List<String> all = StreamSupport.stream(client.listAssets(ListAssetsRequest.newBuilder().setParent(org)
            .setPageSize(7).build()).iterateAll().spliterator(), false).map(a -> a.getName()).toList();
        assertThat(new HashSet<>(all)).isEqualTo(truth(a -> true)).hasSize(all.size());
        List<String> instances = StreamSupport.stream(client.listAssets(ListAssetsRequest.newBuilder().setParent(org)
            .addAssetTypes("compute.googleapis.com.*").build()).iterateAll().spliterator(), false).map(a -> a.getName()).toList();
        assertThat(instances).hasSize(12).allSatisfy(n -> assertThat(n).startsWith("//compute.googleapis.com/projects/"));
    }

    @Test
    void searchAllResourcesAtTheOrganizationDiscoversProjects() {
        String org = "organizations/" + sim.estate().gcp().organization();
        List<String> names = StreamSupport.stream(client.searchAllResources(SearchAllResourcesRequest.newBuilder()
            .setScope(org).setPageSize(5).build()).iterateAll().spliterator(), false).map(r -> r.getName()).toList();
        assertThat(new HashSet<>(names)).isEqualTo(truth(a -> true)).hasSize(names.size());
        List<String> projects = StreamSupport.stream(client.searchAllResources(SearchAllResourcesRequest.newBuilder()
            .setScope(org).addAssetTypes("cloudresourcemanager.googleapis.com/Project").build()).iterateAll().spliterator(), false)
            .map(r -> r.getDisplayName()).toList();
        assertThat(projects).containsExactlyInAnyOrderElementsOf(
            sim.estate().gcp().projects().stream().map(GcpProject::id).toList());
        assertThatThrownBy(() -> client.searchAllResources(SearchAllResourcesRequest.newBuilder().setScope(org)
            .setQuery("name:foo").build()).iterateAll().iterator().next())
            .isInstanceOfSatisfying(ApiException.class,
                e -> assertThat(e.getStatusCode().getCode()).isEqualTo(StatusCode.Code.INVALID_ARGUMENT));
        assertThatThrownBy(() -> client.listAssets("projects/no-such-project").iterateAll().iterator().next())
            .isInstanceOfSatisfying(ApiException.class,
                e -> assertThat(e.getStatusCode().getCode()).isEqualTo(StatusCode.Code.PERMISSION_DENIED));
    }

    @Test
    void anEmptyQuotaIsResourceExhaustedWithRateLimitExceeded() {
        GcpProject p = sim.estate().gcp().projects().get(2);
        String key = "gcp/projects/" + p.id() + "/cloudasset/ListAssets";
        BucketStats before = sim.stats().bucket(key);
        long admittedBefore = before == null ? 0 : before.admitted();
        int ok = 0;
        ResourceExhaustedException caught = null;
        for (int i = 0; i < 40 && caught == null; i++) {
            try {
                client.listAssets(ListAssetsRequest.newBuilder().setParent("projects/" + p.id()).setPageSize(1).build())
                    .getPage();
                ok++;
            } catch (ResourceExhaustedException e) {
                caught = e;
            }
        }
        assertThat(caught).isNotNull();
        assertThat(ok + admittedBefore).isEqualTo(30);
        assertThat(caught.getReason()).isEqualTo("RATE_LIMIT_EXCEEDED");
        assertThat(caught.getDomain()).isEqualTo("googleapis.com");
        StatusRuntimeException raw = (StatusRuntimeException) caught.getCause();
        assertThat(raw.getStatus().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
        com.google.rpc.Status details = StatusProto.fromThrowable(raw);
        assertThat(details.getDetailsList()).anySatisfy(any -> {
            assertThat(any.is(ErrorInfo.class)).isTrue();
            assertThat(any.unpack(ErrorInfo.class).getReason()).isEqualTo("RATE_LIMIT_EXCEEDED");
        });
        BucketStats b = sim.stats().bucket(key);
        assertThat(b.throttled()).isEqualTo(1);
        assertThat(b.burst()).isEqualTo(30);
        assertThat(b.rate()).isEqualTo(0.5);
    }

    @Test
    void injectedFaultsUseGrpcStatuses() {
        sim.setFaults(FaultSpec.fromYaml("""
            faults:
              - {match: {provider: gcp, operation: SearchAllResources}, error: throttle, count: 1}
              - {match: {provider: gcp, operation: SearchAllResources}, error: access_denied, count: 1}
            """));
        try {
            String scope = "projects/" + sim.estate().gcp().projects().get(0).id();
            assertThatThrownBy(() -> client.searchAllResources(scope, "", List.of()).getPage())
                .isInstanceOf(ResourceExhaustedException.class);
            assertThatThrownBy(() -> client.searchAllResources(scope, "", List.of()).getPage())
                .isInstanceOfSatisfying(ApiException.class,
                    e -> assertThat(e.getStatusCode().getCode()).isEqualTo(StatusCode.Code.PERMISSION_DENIED));
            assertThat(client.searchAllResources(scope, "", List.of()).iterateAll()).isNotEmpty();
        } finally {
            sim.setFaults(FaultSpec.NONE);
        }
    }

    @Test
    void methodsTheSimulatorDoesNotServeAreUnimplemented() {
        assertThatThrownBy(() -> client.batchGetAssetsHistory(com.google.cloud.asset.v1.BatchGetAssetsHistoryRequest
            .newBuilder().setParent("projects/" + sim.estate().gcp().projects().get(0).id()).build()))
            .isInstanceOfSatisfying(ApiException.class,
                e -> assertThat(e.getStatusCode().getCode()).isEqualTo(StatusCode.Code.UNIMPLEMENTED));
    }

    private static Set<String> truth(java.util.function.Predicate<Asset> p) {
        return sim.truth().select(a -> a.provider().equals("gcp") && p.test(a)).stream().map(Asset::id)
            .collect(Collectors.toSet());
    }
}
