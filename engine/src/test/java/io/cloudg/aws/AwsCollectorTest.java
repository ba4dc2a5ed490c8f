package io.cloudg.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cloudg.config.AwsSettings;
import io.cloudg.inventory.Asset;
import io.cloudg.resilience.Governor;
import io.cloudg.resilience.TaskLedger;
import io.cloudg.resilience.config.RateLimitConfig;
import io.cloudg.sim.CloudSim;
import io.cloudg.sim.SimOptions;
import io.cloudg.sim.config.AwsSpec;
import io.cloudg.sim.config.EstateSpec;
import io.cloudg.sim.estate.AwsResource;
import io.cloudg.sim.core.AwsType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

/**
 * Per-item calls of a catalog collector against cloud-sim: a window of {@code aws.item_concurrency} in flight
 * at once (never more), and assets in listing order.
 */
class AwsCollectorTest {
    static final int AMIS = 20;

    @Test
    void perItemCallsRunAWindowAtATimeAndAssetsKeepListingOrder() throws Exception {
        assertWindow(AwsSettings.DEFAULT_ITEM_CONCURRENCY);
    }

    @Test
    void theWindowIsAwsItemConcurrency() throws Exception {
        assertWindow(3);
        assertThatThrownBy(() -> AwsSettings.DEFAULTS.withItemConcurrency(0))
                .hasMessageContaining("aws.item_concurrency").hasMessageContaining("0");
    }

    void assertWindow(int window) throws Exception {
        EstateSpec estate = EstateSpec.defaultEstate().withAws(new AwsSpec(1, null, null, List.of("us-east-1"),
                AwsSpec.DEFAULT_ROLE, Map.of(AwsType.EC2_IMAGE, AMIS)));
        CountDownLatch allInFlight = new CountDownLatch(window);
        AtomicInteger started = new AtomicInteger();
        AtomicInteger accepted = new AtomicInteger();
        AtomicInteger maxAhead = new AtomicInteger();
        AtomicBoolean neverTogether = new AtomicBoolean();
        // The first window's calls only get past the latch once all of them are in flight at once: one call after
        // another would never open it.
        ThreadPoolExecutor threads = new ThreadPoolExecutor(0, 64, 10, TimeUnit.SECONDS, new SynchronousQueue<>()) {
            @Override
            public void execute(Runnable task) {
                super.execute(() -> {
                    // calls started but whose assets the job has not taken yet: never more than the window
                    maxAhead.accumulateAndGet(started.incrementAndGet() - accepted.get(), Math::max);
                    try {
                        allInFlight.countDown();
                        if (!allInFlight.await(30, TimeUnit.SECONDS)) {
                            neverTogether.set(true);
                        }
                        task.run();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
            }
        };
        try (CloudSim sim = CloudSim.start(SimOptions.builder().port(0).estate(estate).build());
             Governor governor = Governor.builder().config(RateLimitConfig.defaults()).build()) {
            String account = sim.estate().aws().management().id();
            AwsSettings settings = AwsSettings.DEFAULTS.withEndpoint(sim.awsEndpoint()).withItemConcurrency(window)
                    .withCredentials(sim.managementCredentials().accessKeyId(), sim.managementCredentials().secretAccessKey());
            AwsAccount me = new AwsAccount(account, null, StaticCredentialsProvider.create(AwsBasicCredentials.create(
                    sim.managementCredentials().accessKeyId(), sim.managementCredentials().secretAccessKey())), true);
            List<Asset> found = new ArrayList<>();
            try (AwsClients clients = new AwsClients(settings, governor, 16, threads);
                 TaskLedger.Binding b = TaskLedger.create("aws/" + account + "/us-east-1/amis").bind()) {
                AwsCatalog.named("amis").body(clients, me, "us-east-1").run(a -> {
                    found.add(a);
                    accepted.incrementAndGet();
                });
            }
            assertThat(neverTogether).as("a window's per-item calls were in flight together").isFalse();
            assertThat(maxAhead.get()).isEqualTo(window);
            List<String> listed = sim.estate().aws().list(account, "us-east-1", AwsType.EC2_IMAGE).stream()
                    .map(AwsResource::id).toList();
            assertThat(found.stream().map(Asset::id).toList()).as("listing order").isEqualTo(listed).hasSize(AMIS);
            assertThat(found).allSatisfy(a -> assertThat(a.attributes()).containsKeys("public", "shared_with",
                    "launch_permissions", "ImageId"));
        } finally {
            threads.shutdownNow();
        }
    }

    private static software.amazon.awssdk.awscore.exception.AwsServiceException answer(String code) {
        return software.amazon.awssdk.awscore.exception.AwsServiceException.builder().statusCode(400)
                .awsErrorDetails(software.amazon.awssdk.awscore.exception.AwsErrorDetails.builder().errorCode(code).build())
                .build();
    }

    @Test
    void aPerItemCallAnsweredNotFoundMeansTheItemIsGoneButADeniedOrThrottledOneDoesNot() {
        for (String gone : java.util.List.of("NoSuchEntity", "NoSuchBucket", "RepositoryNotFoundException",
                "ResourceNotFoundException", "NotFoundException", "LoadBalancerNotFound", "DBInstanceNotFound",
                "DBClusterNotFoundFault", "AWS.SimpleQueueService.NonExistentQueue", "InvalidAMIID.NotFound",
                "InvalidSnapshot.NotFound")) {
            assertThat(AwsCollector.gone(answer(gone))).as(gone).isTrue();
        }
        for (String other : java.util.List.of("AccessDenied", "AccessDeniedException", "UnauthorizedOperation",
                "Throttling", "RequestLimitExceeded", "InternalError", "BadRequestException", "ValidationException")) {
            assertThat(AwsCollector.gone(answer(other))).as(other).isFalse();
        }
    }
}
