package io.cloudg.resilience.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudg.resilience.spi.Scope;
import io.cloudg.resilience.core.CallVerdict;
import io.cloudg.resilience.spi.Admission;
import io.cloudg.resilience.spi.AdmitRequest;
import io.cloudg.resilience.spi.AttemptOutcome;
import io.cloudg.resilience.spi.OutcomeRequest;
import io.cloudg.resilience.spi.SlotLease;
import io.cloudg.resilience.spi.SlotRequest;
import io.cloudg.resilience.spi.StateStore;
import io.cloudg.resilience.spi.StateStoreContract;
import io.cloudg.resilience.time.ManualTimeSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;

/**
 * The contract suite, unchanged, against a real three-master Redis Cluster (embedded redis-server 6.2
 * processes), through a client built from {@code ratelimit.redis.mode: cluster}: every script's keys must
 * share a hash slot (one hash tag per provider x account), batches must not mix tags, and clearing and
 * snapshots must reach every master.
 */
class RedisStateStoreClusterContractTest extends StateStoreContract {
    private static TestRedisCluster cluster;
    private static RedissonClient client;

    @BeforeAll
    static void startCluster() {
        cluster = TestRedisCluster.start(3);
        client = cluster.client();
    }

    @AfterAll
    static void stopCluster() {
        if (client != null) {
            client.shutdown();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Override
    protected StateStore newStore(ManualTimeSource time) {
        return RedisStateStore.builder(client).keyPrefix("contractc").clock(StoreClock.injected(time)).build();
    }

    /**
     * Many accounts at once from many threads, so that calls of different hash tags queue side by side:
     * each account's keys live on the master of its tag's slot (the accounts spread over every master),
     * no batch mixes slots (a CROSSSLOT error would fail a call), and every slot taken comes back.
     */
    @Test
    void accountsSpreadOverEveryMasterAndConcurrentCallsNeverMixSlots() throws Exception {
        int accounts = 64;
        int threads = 8;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CyclicBarrier start = new CyclicBarrier(threads);
        List<Future<Integer>> done = new ArrayList<>();
        try {
            for (int t = 0; t < threads; t++) {
                int first = t;
                done.add(pool.submit(() -> {
                    start.await(30, TimeUnit.SECONDS);
                    int admitted = 0;
                    for (int round = 0; round < 5; round++) {
                        for (int a = first; a < accounts; a += threads) {
                            String id = String.format("%012d", 100_000_000_000L + a);
                            Scope account = Scope.account("aws", id);
                            Scope leaf = Scope.of("aws", id, "us-east-1", "ec2", "DescribeVpcs");
                            Admission adm = store.admit(new AdmitRequest("aws", null, account, null, leaf, LIMIT, BREAKER,
                                    new SlotRequest(account, 128, 60 * SEC), 1));
                            assertThat(adm.rejected()).isFalse();
                            SlotLease lease = adm.lease() != null ? adm.lease() : store.tryAcquireSlot(new SlotRequest(account, 128, 60 * SEC));
                            store.record(new OutcomeRequest(leaf, LIMIT, AttemptOutcome.SUCCESS, -1, BREAKER,
                                    CallVerdict.SUCCESS, 0, lease));
                            admitted++;
                        }
                    }
                    return admitted;
                }));
            }
            int total = 0;
            for (Future<Integer> f : done) {
                total += f.get(60, TimeUnit.SECONDS);
            }
            assertThat(total).isEqualTo(accounts * 5);
        } finally {
            pool.shutdownNow();
        }
        for (TestRedis node : cluster.nodes()) {
            assertThat(Long.parseLong(TestRedisCluster.command(node.port(), List.of("DBSIZE"))))
                    .as("keys on the master at port %d", node.port()).isPositive();
        }
        for (int a = 0; a < accounts; a++) {
            assertThat(store.slotsInUse(Scope.account("aws", String.format("%012d", 100_000_000_000L + a)))).isZero();
        }
        assertThat(store.snapshot().leaves()).hasSize(accounts);
    }
}
