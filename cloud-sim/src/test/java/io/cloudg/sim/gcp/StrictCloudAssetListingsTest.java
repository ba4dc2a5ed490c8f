package io.cloudg.sim.gcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.api.gax.core.NoCredentialsProvider;
import com.google.api.gax.grpc.GrpcTransportChannel;
import com.google.api.gax.rpc.FixedTransportChannelProvider;
import com.google.cloud.asset.v1.AssetServiceClient;
import com.google.cloud.asset.v1.AssetServiceSettings;
import com.google.cloud.asset.v1.ListAssetsRequest;
import com.google.cloud.asset.v1.ListAssetsResponse;
import io.cloudg.sim.estate.Asset;
import io.cloudg.sim.CloudSim;
import io.cloudg.sim.SimOptions;
import io.cloudg.sim.estate.Truth;
import io.cloudg.sim.config.EstateSpec;
import io.cloudg.sim.core.ManualClock;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Strict Cloud Asset listings: short and empty pages with a next token, and churn, through the real client. */
class StrictCloudAssetListingsTest {

    @Test
    void organizationListingsPageUnevenlyAndHoldEveryStableAssetWhileAssetsChurn() throws Exception {
        ManualClock clock = new ManualClock();
        try (CloudSim sim = CloudSim.start(SimOptions.builder().seed(4).clock(clock).estate(EstateSpec.fromYaml("""
            realism: strict
            aws: {accounts: 1, regions: [us-east-1], resources: {}}
            gcp: {projects: 3, resources: {compute.googleapis.com/Instance: 15, storage.googleapis.com/Bucket: 10}}
            churn: {created: 0.2, deleted: 0.2, from: 0s, until: 20s}
            quotas: {enabled: false}
            """)).build())) {
            ManagedChannel channel = ManagedChannelBuilder.forTarget(sim.gcpTarget()).usePlaintext().build();
            try (AssetServiceClient client = AssetServiceClient.create(AssetServiceSettings.newBuilder()
                .setCredentialsProvider(NoCredentialsProvider.create())
                .setTransportChannelProvider(FixedTransportChannelProvider.create(GrpcTransportChannel.create(channel)))
                .build())) {
                String org = "organizations/" + sim.estate().gcp().organization();
                List<Integer> sizes = new ArrayList<>();
                Set<String> seen = new HashSet<>();
                String token = "";
                do {
                    ListAssetsResponse r = client.listAssetsCallable().call(ListAssetsRequest.newBuilder().setParent(org)
                        .setPageSize(7).setPageToken(token).build());
                    sizes.add(r.getAssetsCount());
                    r.getAssetsList().forEach(a -> assertThat(seen.add(a.getName())).as(a.getName()).isTrue());
                    token = r.getNextPageToken();
                    clock.advance(Duration.ofSeconds(1));
                } while (!token.isEmpty());
                assertThat(sizes.subList(0, sizes.size() - 1)).as("%s", sizes).anyMatch(n -> n < 7);
                Truth truth = sim.truth();
                assertThat(truth.churned()).anyMatch(a -> a.provider().equals("gcp"));
                Truth.Check check = truth.check(seen, a -> a.provider().equals("gcp"), Asset::id);
                assertThat(check.equal()).as("%s", check).isTrue();
            } finally {
                channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
            }
        }
    }
}
