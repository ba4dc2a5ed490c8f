package io.cloudg.sim.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.core.credential.AccessToken;
import com.azure.core.credential.TokenCredential;
import com.azure.core.http.HttpClient;
import com.azure.core.http.HttpHeaderName;
import com.azure.core.http.netty.NettyAsyncHttpClientBuilder;
import com.azure.core.http.policy.FixedDelayOptions;
import com.azure.core.http.policy.RetryOptions;
import com.azure.core.management.AzureEnvironment;
import com.azure.core.management.exception.ManagementException;
import com.azure.core.management.profile.AzureProfile;
import com.azure.resourcemanager.resourcegraph.ResourceGraphManager;
import com.azure.resourcemanager.resourcegraph.models.QueryRequest;
import com.azure.resourcemanager.resources.ResourceManager;
import io.cloudg.sim.CloudSim;
import io.cloudg.sim.SimOptions;
import io.cloudg.sim.config.EstateSpec;
import io.cloudg.sim.core.ManualClock;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.Map;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/** Strict Azure quotas through the real SDK: the fixed Retry-After, the subscription-wide reads, graph windows. */
class StrictAzureQuotasTest {

    static CloudSim start(ManualClock clock, String quotas) {
        return CloudSim.start(SimOptions.builder().seed(11).clock(clock).estate(EstateSpec.fromYaml("""
            realism: strict
            churn: {created: 0, deleted: 0}
            aws: {accounts: 1, regions: [us-east-1], resources: {}}
            azure: {subscriptions: 2, resource_groups: 2, resources: {Microsoft.Compute/virtualMachines: 2}}
            """ + quotas)).build());
    }

    static HttpClient http(CloudSim sim) {
        return new LoopbackHttpClient(new NettyAsyncHttpClientBuilder().build(), "127.0.0.1:" + sim.port());
    }

    static AzureProfile profile(CloudSim sim) {
        String base = sim.azureSdkEndpoint() + "/";
        AzureEnvironment env = new AzureEnvironment(Map.of("resourceManagerEndpointUrl", base,
            "activeDirectoryEndpointUrl", base, "managementEndpointUrl", base));
        return new AzureProfile(sim.azureTenantId(), sim.estate().azure().subscriptions().get(0).id(), env);
    }

    static TokenCredential token(String value) {
        return request -> Mono.just(new AccessToken(value, OffsetDateTime.now().plusHours(1)));
    }

    static ResourceManager arm(CloudSim sim, String principal, String subscription) {
        return ResourceManager.configure().withHttpClient(http(sim))
            .withRetryOptions(new RetryOptions(new FixedDelayOptions(0, Duration.ofMillis(1))))
            .authenticate(token(principal), profile(sim)).withSubscription(subscription);
    }

    @Test
    void armReadsShareASubscriptionWideLimitAcrossPrincipalsAndSayRetryAfterTenSeconds() {
        try (CloudSim sim = start(new ManualClock(), """
            quotas: {azure: {arm_reads: {rate: 0.01, burst: 5}, arm_global_reads: {rate: 0.01, burst: 7}}}
            """)) {
            String sub = sim.estate().azure().subscriptions().get(0).id();
            ResourceManager alice = arm(sim, "alice", sub);
            ResourceManager bob = arm(sim, "bob", sub);
            for (int i = 0; i < 5; i++) {
                alice.resourceGroups().list().stream().count();
            }
            assertThatThrownBy(() -> alice.resourceGroups().list().stream().count())
                .as("alice's own bucket is empty").isInstanceOf(ManagementException.class);
            bob.resourceGroups().list().stream().count();
            bob.resourceGroups().list().stream().count();
            assertThatThrownBy(() -> bob.resourceGroups().list().stream().count())
                .as("bob has 3 of his own left, but the subscription's 7 are spent")
                .isInstanceOfSatisfying(ManagementException.class, e -> {
                    assertThat(e.getResponse().getStatusCode()).isEqualTo(429);
                    assertThat(e.getValue().getCode()).isEqualTo("SubscriptionRequestsThrottled");
                    assertThat(e.getResponse().getHeaders().getValue(HttpHeaderName.RETRY_AFTER)).isEqualTo("10");
                    assertThat(e.getResponse().getHeaders().getValue(
                        HttpHeaderName.fromString("x-ms-ratelimit-remaining-subscription-global-reads"))).isEqualTo("0");
                });
            // the other subscription is untouched
            String other = sim.estate().azure().subscriptions().get(1).id();
            assertThat(arm(sim, "bob", other).resourceGroups().list().stream().count()).isEqualTo(2);
            assertThat(sim.stats().bucket("azure/" + sub + "/reads").throttled()).isEqualTo(1);
            assertThat(sim.stats().bucket("azure/" + sub + "/principal-" + Integer.toHexString("bob".hashCode()) + "/reads").calls()).as("not charged for the refused call")
                .isEqualTo(2);
        }
    }

    @Test
    void theArmRetryAfterIsConfigurable() {
        try (CloudSim sim = start(new ManualClock(), """
            quotas: {azure: {arm_reads: {rate: 0.01, burst: 1}, arm_retry_after: 3s}}
            """)) {
            ResourceManager rm = arm(sim, "carol", sim.estate().azure().subscriptions().get(0).id());
            rm.resourceGroups().list().stream().count();
            assertThatThrownBy(() -> rm.resourceGroups().list().stream().count())
                .isInstanceOfSatisfying(ManagementException.class, e -> assertThat(e.getResponse().getHeaders()
                    .getValue(HttpHeaderName.RETRY_AFTER)).isEqualTo("3"));
        }
    }

    @Test
    void resourceGraphAdmitsFifteenPerFiveSecondWindowAndResetsWhenTheWindowEnds() {
        ManualClock clock = new ManualClock();
        try (CloudSim sim = start(clock, "")) {
            ResourceGraphManager rg = ResourceGraphManager.configure().withHttpClient(http(sim))
                .withRetryOptions(new RetryOptions(new FixedDelayOptions(0, Duration.ofMillis(1))))
                .authenticate(token("graph-user"), profile(sim));
            for (int i = 0; i < 15; i++) {
                rg.resourceProviders().resources(new QueryRequest().withQuery("Resources | limit 1"));
                clock.advance(Duration.ofMillis(100));
            }
            clock.advance(Duration.ofMillis(1_500));
            assertThatThrownBy(() -> rg.resourceProviders().resources(new QueryRequest().withQuery("Resources | limit 1")))
                .isInstanceOfSatisfying(ManagementException.class, e -> {
                    assertThat(e.getResponse().getStatusCode()).isEqualTo(429);
                    assertThat(e.getValue().getCode()).isEqualTo("RateLimiting");
                    var h = e.getResponse().getHeaders();
                    assertThat(h.getValue(HttpHeaderName.fromString("x-ms-user-quota-remaining"))).isEqualTo("0");
                    assertThat(h.getValue(HttpHeaderName.fromString("x-ms-user-quota-resets-after")))
                        .as("the window opened 3 s ago").isEqualTo("00:00:02");
                    assertThat(h.getValue(HttpHeaderName.RETRY_AFTER)).isNull();
                });
            clock.advance(Duration.ofSeconds(2));
            var ok = rg.resourceProviders().resourcesWithResponse(new QueryRequest().withQuery("Resources | limit 1"),
                com.azure.core.util.Context.NONE);
            assertThat(ok.getStatusCode()).isEqualTo(200);
            assertThat(ok.getHeaders().getValue(HttpHeaderName.fromString("x-ms-user-quota-remaining"))).isEqualTo("14");
            assertThat(ok.getHeaders().getValue(HttpHeaderName.fromString("x-ms-user-quota-resets-after")))
                .isEqualTo("00:00:05");
            var b = sim.stats().bucket("azure/principal-" + Integer.toHexString("graph-user".hashCode()) + "/resourcegraph");
            assertThat(b.model()).isEqualTo("fixed_window");
            assertThat(b.admitted()).isEqualTo(16);
            assertThat(b.throttled()).isEqualTo(1);
        }
    }
}
