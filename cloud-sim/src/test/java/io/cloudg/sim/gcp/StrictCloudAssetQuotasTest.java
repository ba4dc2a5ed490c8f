package io.cloudg.sim.gcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.api.gax.core.NoCredentialsProvider;
import com.google.api.gax.grpc.GrpcCallContext;
import com.google.api.gax.grpc.GrpcTransportChannel;
import com.google.api.gax.grpc.InstantiatingGrpcChannelProvider;
import com.google.api.gax.rpc.FixedHeaderProvider;
import com.google.api.gax.rpc.FixedTransportChannelProvider;
import com.google.api.gax.rpc.ResourceExhaustedException;
import com.google.cloud.asset.v1.AssetServiceClient;
import com.google.cloud.asset.v1.AssetServiceSettings;
import com.google.cloud.asset.v1.ListAssetsRequest;
import com.google.rpc.ErrorInfo;
import com.google.rpc.RetryInfo;
import io.cloudg.sim.CloudSim;
import io.cloudg.sim.SimOptions;
import io.cloudg.sim.config.EstateSpec;
import io.cloudg.sim.core.ManualClock;
import io.cloudg.sim.estate.GcpProject;
import io.cloudg.sim.quota.BucketStats;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Strict Cloud Asset quotas with the real client over gRPC: charged to the consumer (calling) project,
 * named by the {@code x-goog-user-project} metadata, and to the organization; per-minute windows; ErrorInfo
 * without RetryInfo.
 *
 * <p>What the Java client (gax-grpc) sends: {@code setQuotaProjectId(p)} and a {@code HeaderProvider} become
 * {@code x-goog-user-project} only when gax builds the channel ({@code InstantiatingGrpcChannelProvider});
 * with a caller-built channel ({@code FixedTransportChannelProvider}) neither is sent, and the caller must
 * add the header per call ({@code GrpcCallContext.withExtraHeaders}) or with a channel interceptor.
 * Without the header the call is charged to the project of the caller's credentials
 * ({@code gcp.consumer_project}, by default the estate's first project).
 */
class StrictCloudAssetQuotasTest {
    ManualClock clock;
    CloudSim sim;
    ManagedChannel channel;

    @BeforeEach
    void start() {
        clock = new ManualClock();
        sim = CloudSim.start(SimOptions.builder().seed(7).clock(clock).estate(EstateSpec.fromYaml("""
            realism: strict
            churn: {created: 0, deleted: 0}
            aws: {accounts: 1, regions: [us-east-1], resources: {}}
            gcp: {projects: 4, resources: {compute.googleapis.com/Instance: 2}, consumer_project: cloudg-tools-project}
            quotas: {gcp: {ListAssets: {project_per_minute: 3, organization_per_minute: 5}}}
            """)).build());
        channel = ManagedChannelBuilder.forTarget(sim.gcpTarget()).usePlaintext().build();
    }

    @AfterEach
    void stop() throws Exception {
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        sim.close();
    }

    /** A client whose channel gax builds (plaintext), so settings' headers reach the wire. */
    AssetServiceClient client(UnaryOperator<AssetServiceSettings.Builder> edit) throws Exception {
        return AssetServiceClient.create(edit.apply(AssetServiceSettings.newBuilder()
            .setCredentialsProvider(NoCredentialsProvider.create())
            .setTransportChannelProvider(InstantiatingGrpcChannelProvider.newBuilder().setEndpoint(sim.gcpTarget())
                .setChannelConfigurator(b -> b.usePlaintext()).build()))
            .build());
    }

    /** A client on a channel the caller built, as the simulator's usual recipe has it. */
    AssetServiceClient fixedChannelClient(UnaryOperator<AssetServiceSettings.Builder> edit) throws Exception {
        return AssetServiceClient.create(edit.apply(AssetServiceSettings.newBuilder()
            .setCredentialsProvider(NoCredentialsProvider.create())
            .setTransportChannelProvider(FixedTransportChannelProvider.create(GrpcTransportChannel.create(channel))))
            .build());
    }

    long calls(String consumer) {
        BucketStats b = sim.stats().bucket("gcp/projects/" + consumer + "/cloudasset/ListAssets");
        return b == null ? 0 : b.calls();
    }

    GcpProject project(int i) {
        return sim.estate().gcp().projects().get(i);
    }

    static void list(AssetServiceClient c, GcpProject target) {
        c.listAssets(ListAssetsRequest.newBuilder().setParent("projects/" + target.id()).build()).getPage();
    }

    @Test
    void twoTargetProjectsCalledFromOneConsumerProjectShareItsQuota() throws Exception {
        GcpProject consumer = project(0);
        try (AssetServiceClient c = client(b -> b.setQuotaProjectId(consumer.id()))) {
            list(c, project(1));
            list(c, project(2));
            list(c, project(1));
            assertThatThrownBy(() -> list(c, project(2))).as("the consumer's 3 per minute are spent, whatever the target")
                .isInstanceOfSatisfying(ResourceExhaustedException.class, e -> {
                    assertThat(e.getReason()).isEqualTo("RATE_LIMIT_EXCEEDED");
                    com.google.rpc.Status s = StatusProto.fromThrowable((StatusRuntimeException) e.getCause());
                    assertThat(s.getDetailsList()).noneMatch(any -> any.is(RetryInfo.class));
                    ErrorInfo info = s.getDetailsList().stream().filter(any -> any.is(ErrorInfo.class)).findFirst()
                        .map(any -> unpack(any)).orElseThrow();
                    assertThat(info.getDomain()).isEqualTo("googleapis.com");
                    assertThat(info.getMetadataMap()).containsEntry("quota_metric",
                        "cloudasset.googleapis.com/list_assets_requests")
                        .containsEntry("quota_limit", "ListAssetsRequestsPerMinutePerProject")
                        .containsEntry("quota_limit_value", "3")
                        .containsEntry("consumer", "projects/" + consumer.number());
                });
        }
        String key = "gcp/projects/" + consumer.id() + "/cloudasset/ListAssets";
        BucketStats b = sim.stats().bucket(key);
        assertThat(b.admitted()).isEqualTo(3);
        assertThat(b.throttled()).isEqualTo(1);
        assertThat(b.model()).isEqualTo("fixed_window");
        assertThat(sim.stats().bucket("gcp/projects/" + project(1).id() + "/cloudasset/ListAssets"))
            .as("targets are not charged").isNull();
    }

    @Test
    void anotherConsumerHasItsOwnQuotaButTheOrganizationsIsShared() throws Exception {
        try (AssetServiceClient a = client(b -> b.setQuotaProjectId(project(0).id()));
             AssetServiceClient b = client(s -> s.setHeaderProvider(FixedHeaderProvider.create("x-goog-user-project",
                 project(3).id())))) {
            list(a, project(1));
            list(a, project(1));
            list(a, project(1));
            list(b, project(1));
            list(b, project(2));
            assertThatThrownBy(() -> list(b, project(2))).as("the organization's 5 per minute are spent")
                .isInstanceOfSatisfying(ResourceExhaustedException.class, e -> {
                    ErrorInfo info = StatusProto.fromThrowable((StatusRuntimeException) e.getCause()).getDetailsList()
                        .stream().filter(any -> any.is(ErrorInfo.class)).findFirst().map(any -> unpack(any)).orElseThrow();
                    assertThat(info.getMetadataMap()).containsEntry("quota_limit",
                        "ListAssetsRequestsPerMinutePerOrganization").containsEntry("quota_limit_value", "5")
                        .containsEntry("consumer", "projects/" + project(3).number());
                });
            assertThat(sim.stats().bucket("gcp/projects/" + project(3).id() + "/cloudasset/ListAssets").calls())
                .as("the consumer was not charged for the refused call").isEqualTo(2);
            // the next minute, everything is back
            clock.advance(Duration.ofMinutes(1));
            list(b, project(2));
            list(a, project(2));
        }
    }

    @Test
    void whatTheJavaClientSendsDecidesWhoIsCharged() throws Exception {
        try (AssetServiceClient fixed = fixedChannelClient(b -> b.setQuotaProjectId(project(1).id()))) {
            list(fixed, project(2));
            assertThat(calls("cloudg-tools-project")).as("a caller-built channel drops setQuotaProjectId").isEqualTo(1);
            assertThat(calls(project(1).id())).isZero();
            fixed.listAssetsPagedCallable().call(ListAssetsRequest.newBuilder().setParent("projects/" + project(2).id())
                .build(), GrpcCallContext.createDefault().withExtraHeaders(Map.of("x-goog-user-project",
                List.of(project(1).id()))));
            assertThat(calls(project(1).id())).as("a per-call header reaches the wire").isEqualTo(1);
        }
        try (AssetServiceClient built = client(b -> b.setQuotaProjectId(project(1).id()))) {
            list(built, project(2));
            assertThat(calls(project(1).id())).as("setQuotaProjectId on a channel gax builds").isEqualTo(2);
        }
        assertThat(calls(project(2).id())).as("the target is never charged").isZero();
        assertThat(sim.stats().bucket("gcp/organizations/" + sim.estate().gcp().organization() + "/cloudasset/ListAssets")
            .calls()).isEqualTo(3);
    }

    @Test
    void withoutAConfiguredCallerProjectTheEstatesFirstProjectIsCharged() throws Exception {
        try (CloudSim other = CloudSim.start(SimOptions.builder().seed(7).clock(clock).estate(EstateSpec.fromYaml("""
            realism: strict
            aws: {accounts: 1, regions: [us-east-1], resources: {}}
            gcp: {projects: 2}
            """)).build());
             AssetServiceClient c = AssetServiceClient.create(AssetServiceSettings.newBuilder()
                 .setCredentialsProvider(NoCredentialsProvider.create())
                 .setTransportChannelProvider(InstantiatingGrpcChannelProvider.newBuilder().setEndpoint(other.gcpTarget())
                     .setChannelConfigurator(b -> b.usePlaintext()).build()).build())) {
            c.listAssets("projects/" + other.estate().gcp().projects().get(1).id()).getPage();
            assertThat(other.stats().buckets()).extracting(BucketStats::key).containsExactlyInAnyOrder(
                "gcp/projects/" + other.estate().gcp().projects().get(0).id() + "/cloudasset/ListAssets",
                "gcp/organizations/" + other.estate().gcp().organization() + "/cloudasset/ListAssets");
        }
    }

    private static ErrorInfo unpack(com.google.protobuf.Any any) {
        try {
            return any.unpack(ErrorInfo.class);
        } catch (com.google.protobuf.InvalidProtocolBufferException e) {
            throw new AssertionError(e);
        }
    }
}
