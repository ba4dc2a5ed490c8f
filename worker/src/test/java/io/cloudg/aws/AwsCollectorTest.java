package io.cloudg.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cloudg.config.AwsSettings;
import io.cloudg.inventory.Asset;
import io.cloudg.resilience.Governor;
import io.cloudg.resilience.TaskLedger;
import io.cloudg.resilience.config.RateLimitConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.services.ec2.Ec2Client;

/** Per-item calls of a declarative collector: a bounded window in flight, order kept, the job's ledger. */
class AwsCollectorTest {
    static final AwsAccount ACCOUNT = new AwsAccount("123456789012", "test",
            StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDEXAMPLE", "secret")), true);
    static final List<String> ITEMS = IntStream.range(0, 50).mapToObj(i -> "ami-" + i).toList();

    Governor governor;
    AwsClients clients;

    @BeforeEach
    void setUp() {
        governor = Governor.builder().config(RateLimitConfig.defaults()).build();
        clients = new AwsClients(AwsSettings.DEFAULTS, governor, 8);
    }

    @AfterEach
    void tearDown() {
        clients.close();
        governor.close();
    }

    @Test
    void perItemCallsRunAWindowAtATimeInTheJobsLedgerAndAssetsKeepListingOrder() throws Exception {
        assertWindow(clients, AwsSettings.DEFAULT_ITEM_CONCURRENCY);
    }

    @Test
    void theWindowIsAwsItemConcurrency() throws Exception {
        try (AwsClients three = new AwsClients(AwsSettings.DEFAULTS.withItemConcurrency(3), governor, 8)) {
            assertWindow(three, 3);
        }
        assertThatThrownBy(() -> AwsSettings.DEFAULTS.withItemConcurrency(0))
                .hasMessageContaining("aws.item_concurrency").hasMessageContaining("0");
    }

    void assertWindow(AwsClients clients, int window) throws Exception {
        CountDownLatch allInFlight = new CountDownLatch(window);
        AtomicInteger inFlight = new AtomicInteger();
        AtomicInteger maxInFlight = new AtomicInteger();
        TaskLedger ledger = TaskLedger.create("task/amis");
        Set<TaskLedger> seen = ConcurrentHashMap.newKeySet();
        AwsCollector<Ec2Client, String> amis = AwsCollector.<Ec2Client, String>of("amis", Ec2Client.class, "AWS::EC2::Image")
                .list((c, w) -> ITEMS).id(s -> s)
                .detail((c, item, w) -> {
                    maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
                    try {
                        seen.add(TaskLedger.current());
                        allInFlight.countDown();
                        // The first window's calls only get past here once all of them are in flight at once:
                        // one call after another would never open the latch.
                        if (!allInFlight.await(30, TimeUnit.SECONDS)) {
                            throw new IllegalStateException("per-item calls did not run concurrently");
                        }
                        return Map.of("launch_permission", item + "-public");
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException(e);
                    } finally {
                        inFlight.decrementAndGet();
                    }
                });
        List<Asset> out = new ArrayList<>();
        List<String> sinkThreads = new ArrayList<>();
        try (TaskLedger.Binding b = ledger.bind()) {
            amis.body(clients, ACCOUNT, "us-east-1").run(a -> {
                out.add(a);
                sinkThreads.add(Thread.currentThread().getName());
            });
        }

        assertThat(out).extracting(Asset::id).containsExactlyElementsOf(ITEMS);
        assertThat(out).allSatisfy(a -> assertThat(a.attributes()).containsEntry("launch_permission", a.id() + "-public"));
        assertThat(maxInFlight.get()).isEqualTo(window);
        assertThat(seen).containsExactly(ledger);
        assertThat(sinkThreads).containsOnly(Thread.currentThread().getName());
    }

    @Test
    void aBugInAPerItemCallEscapesAndTheRestAreCancelled() {
        AwsCollector<Ec2Client, String> amis = AwsCollector.<Ec2Client, String>of("amis", Ec2Client.class, "AWS::EC2::Image")
                .list((c, w) -> ITEMS).id(s -> s)
                .detail((c, item, w) -> {
                    if (item.equals("ami-3")) {
                        throw new IllegalStateException("bug in the detail of " + item);
                    }
                    return Map.of();
                });
        List<Asset> out = new ArrayList<>();
        assertThatThrownBy(() -> amis.body(clients, ACCOUNT, "us-east-1").run(out::add))
                .isInstanceOf(IllegalStateException.class).hasMessage("bug in the detail of ami-3");
        assertThat(out).extracting(Asset::id).containsExactly("ami-0", "ami-1", "ami-2");
    }

    @Test
    void collectorsWithoutPerItemCallsStayOnTheJobsThread() throws Exception {
        AwsCollector<Ec2Client, String> vpcs = AwsCollector.<Ec2Client, String>of("vpc", Ec2Client.class, "AWS::EC2::VPC")
                .list((c, w) -> ITEMS).id(s -> s.endsWith("7") ? null : s)
                .arn("arn:aws:ec2:{region}:{account}:vpc/{id}");
        List<Asset> out = new ArrayList<>();
        vpcs.body(clients, ACCOUNT, "eu-west-1").run(out::add);
        assertThat(out).hasSize(45).first().satisfies(a -> {
            assertThat(a.arn()).isEqualTo("arn:aws:ec2:eu-west-1:123456789012:vpc/ami-0");
            assertThat(a.region()).isEqualTo("eu-west-1");
        });
    }
}
