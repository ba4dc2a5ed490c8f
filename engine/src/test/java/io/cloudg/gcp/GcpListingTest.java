package io.cloudg.gcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.asset.v1.ContentType;
import com.google.cloud.asset.v1.ListAssetsRequest;
import com.google.cloud.asset.v1.ListAssetsResponse;
import com.google.cloud.asset.v1.ResourceSearchResult;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import io.cloudg.config.GcpSettings;
import io.cloudg.resilience.Governor;
import io.cloudg.resilience.spi.Scope;
import io.cloudg.resilience.config.RateLimitConfig;
import io.cloudg.resilience.report.ThrottlingStats;
import io.cloudg.resilience.TaskLedger;
import io.cloudg.sim.CloudSim;
import io.cloudg.sim.SimOptions;
import io.cloudg.sim.config.EstateSpec;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** One listing against cloud-sim: the slot it holds and the governed call each page is. */
class GcpListingTest {
    @Test
    void aListingHoldsOneSlotAcrossAllItsPagesAndEachPageIsOneGovernedCall() throws Exception {
        // strict, but full pages and no churn: the test counts pages of a known size
        EstateSpec spec = EstateSpec.fromYaml("realism: strict\nlistings: {short_pages: 0, empty_pages: 0}\n"
                + "churn: {created: 0, deleted: 0}\ngcp: {projects: 1, resources: {pubsub.googleapis.com/Topic: 17}}");
        try (CloudSim sim = CloudSim.start(SimOptions.builder().port(0).estate(spec).build());
             Governor g = Governor.builder().config(RateLimitConfig.defaults()).build()) {
            String project = sim.estate().gcp().projects().get(0).id();
            GcpSettings settings = GcpSettings.DEFAULTS.withEndpoint(sim.gcpTarget());
            try (GcpClients clients = new GcpClients(settings, g, 4)) {
                GcpParent parent = GcpParent.project(project);
                GcpListing<ListAssetsRequest, ListAssetsResponse> listing = new GcpListing<>(g, clients.quotas(),
                        "ListAssets", clients.client().listAssetsCallable(),
                        token -> ListAssetsRequest.newBuilder().setParent(parent.name()).setPageSize(5)
                                .setContentType(ContentType.RESOURCE).setPageToken(token).build(),
                        ListAssetsResponse::getNextPageToken);
                Scope bulkhead = Scope.account("gcp", CloudAssetQuotas.CREDENTIALS_PROJECT);
                List<Integer> slotsDuringPages = new ArrayList<>();
                List<Integer> callsDuringPages = new ArrayList<>();
                List<Integer> sizes = new ArrayList<>();
                ThrottlingStats run = new ThrottlingStats();
                int pages;
                try (TaskLedger.Binding b = TaskLedger.create("t", run).bind()) {
                    pages = listing.run(page -> {
                        slotsDuringPages.add(g.store().slotsInUse(bulkhead));
                        callsDuringPages.add(g.callsInFlight());
                        sizes.add(page.getAssetsCount());
                    });
                }
                assertThat(pages).isEqualTo(4);
                assertThat(sizes).containsExactly(5, 5, 5, 3);
                assertThat(slotsDuringPages).as("held between pages too").containsOnly(1);
                assertThat(callsDuringPages).as("one place under the process's ceiling for the whole listing")
                        .containsOnly(1);
                assertThat(g.callsInFlight()).isZero();
                assertThat(g.store().slotsInUse(bulkhead)).as("given back at the end").isZero();
                assertThat(run.totals().calls()).as("one governed call per page").isEqualTo(4);
            }
        }
    }

    @Test
    void projectIdsComeFromTheSearchResult() {
        ResourceSearchResult withAttribute = ResourceSearchResult.newBuilder().setDisplayName("My Project")
                .setProject("projects/123456789012").setAdditionalAttributes(Struct.newBuilder()
                        .putFields("projectId", Value.newBuilder().setStringValue("my-project-1").build())).build();
        assertThat(GcpProvider.projectId(withAttribute)).isEqualTo("my-project-1");
        ResourceSearchResult idAsName = ResourceSearchResult.newBuilder().setDisplayName("sim-project-1-abcd")
                .setProject("projects/123456789012").build();
        assertThat(GcpProvider.projectId(idAsName)).isEqualTo("sim-project-1-abcd");
        ResourceSearchResult neither = ResourceSearchResult.newBuilder().setDisplayName("My Project")
                .setProject("projects/123456789012").build();
        assertThat(GcpProvider.projectId(neither)).isEqualTo("123456789012");
    }

    @Test
    void aFleetTargetIsReplannedAsItsListing() {
        try (Governor g = Governor.builder().config(RateLimitConfig.defaults()).build();
             GcpClients clients = new GcpClients(GcpSettings.DEFAULTS.withEndpoint("127.0.0.1:1"), g, 4)) {
            GcpProvider p = new GcpProvider(GcpSettings.DEFAULTS, clients, g);
            io.cloudg.collect.CollectionTask org = p.taskFor(new io.cloudg.run.TaskTarget("gcp", "organizations/42",
                    "global", List.of(), null));
            assertThat(org.id()).isEqualTo("gcp/organizations/42/global");
            assertThat(org.jobs()).extracting(io.cloudg.collect.CollectorJob::service).containsExactly("cloudasset");
            assertThat(p.taskFor(new io.cloudg.run.TaskTarget("gcp", "my-project-1", "global", List.of("other"), null))
                    .jobs()).isEmpty();
        }
    }

    @Test
    void channelsCarryAtMostAHundredCallsEachAndAsManyAsTheCallsInFlightNeed() {
        assertThat(GcpClients.channelPool(16).getMaxChannelCount()).isEqualTo(1);
        assertThat(GcpClients.channelPool(100).getMaxChannelCount()).isEqualTo(1);
        com.google.api.gax.grpc.ChannelPoolSettings many = GcpClients.channelPool(4096);
        assertThat(many.getMaxChannelCount()).isEqualTo(41);
        assertThat(many.getMinChannelCount()).as("idle: down to one").isEqualTo(1);
        assertThat(many.getMaxRpcsPerChannel()).isEqualTo(100);
    }
}
