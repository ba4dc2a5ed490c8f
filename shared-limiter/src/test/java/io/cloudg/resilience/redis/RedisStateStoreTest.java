package io.cloudg.resilience.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cloudg.resilience.spi.Scope;
import io.cloudg.resilience.config.BucketLimit;
import io.cloudg.resilience.config.LeafLimit;
import io.cloudg.resilience.config.RateLimitConfig;
import io.cloudg.resilience.config.RedisSettings;
import io.cloudg.resilience.core.BreakerLimit;
import io.cloudg.resilience.core.BreakerState;
import io.cloudg.resilience.core.CallVerdict;
import io.cloudg.resilience.core.Leaves;
import io.cloudg.resilience.spi.Admission;
import io.cloudg.resilience.spi.AdmitRequest;
import io.cloudg.resilience.spi.AttemptOutcome;
import io.cloudg.resilience.spi.OutcomeRequest;
import io.cloudg.resilience.spi.SlotRequest;
import io.cloudg.resilience.spi.StateStore;
import io.cloudg.resilience.spi.StateStoreUnavailableException;
import io.cloudg.resilience.testkit.Threads;
import io.cloudg.resilience.time.ManualTimeSource;
import io.cloudg.resilience.testkit.Poll;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.redisson.api.RScript;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.connection.CRC16;

/** What the contract suite cannot see: scripts, keys, TTLs, formats, server time, the admin API. */
class RedisStateStoreTest {
    static final long SEC = 1_000_000_000L;
    static final Scope ACCOUNT = Scope.account("aws", "123456789012");
    static final Scope LEAF = Scope.of("aws", "123456789012", "us-east-1", "ec2", "DescribeSubnets");
    static final Scope OTHER = Scope.of("aws", "123456789012", "eu-west-1", "s3", null);
    static final LeafLimit LIMIT = new LeafLimit(20, 100, 0.2, true);
    static final BreakerLimit BREAKER = new BreakerLimit(5, 60 * SEC, 600 * SEC, 30 * SEC);

    static TestRedis redis;
    static RedissonClient client;
    RedisStateStore store;

    @BeforeAll
    static void startRedis() {
        redis = TestRedis.embedded();
        client = redis.client();
    }

    @AfterAll
    static void stopRedis() {
        client.shutdown();
        redis.close();
    }

    @BeforeEach
    void newStore() {
        store = RedisStateStore.builder(client).keyPrefix("unit").learnedTtl(Duration.ofHours(24)).build();
        store.clear();
    }

    @AfterEach
    void clear() {
        store.clear();
    }

    /**
     * An admission refills a leaf to its capacity, as Leaves.current does, never to the full burst; a success
     * that changes nothing (Leaves.onSuccess returns the state itself) leaves the stored balance alone: the
     * stored balance is what the contract suite cannot see (RedisMatchesMemoryTest compares it at every step).
     */
    @Test
    void anIdleLeafRefillsToItsCapacityAndASuccessLeavesTheBalanceAlone() {
        ManualTimeSource time = new ManualTimeSource();
        time.advance(Duration.ofHours(1));
        RedisStateStore s = RedisStateStore.builder(client).keyPrefix("capacity").clock(StoreClock.injected(time)).build();
        s.clear();
        try {
            AdmitRequest admit = new AdmitRequest("aws", null, ACCOUNT, null, LEAF, LIMIT, BREAKER, null, 1);
            s.admit(admit);
            s.admit(admit); // the second one takes the straight-line path
            time.advance(Duration.ofMinutes(10));
            s.record(new OutcomeRequest(LEAF, LIMIT, AttemptOutcome.SUCCESS, -1, BREAKER, CallVerdict.SUCCESS, 0, null));
            assertThat(storedTokens(s)).as("after a success").isEqualTo(Leaves.capacity(LIMIT) - 2);
            time.advance(Duration.ofMinutes(10));
            s.admit(admit);
            assertThat(storedTokens(s)).as("after an admission").isEqualTo(Leaves.capacity(LIMIT) - 1);
        } finally {
            s.clear();
            s.close();
        }
    }

    private double storedTokens(RedisStateStore s) {
        return s.leafState(LEAF).tokens();
    }

    AdmitRequest admitReq(Scope leaf, SlotRequest slot) {
        return new AdmitRequest("aws", new BucketLimit(1000, 1000), leaf.accountScope(), new BucketLimit(100, 200), leaf,
                LIMIT, BREAKER, slot, 1);
    }

    static int slot(String key) {
        int open = key.indexOf('{');
        int close = key.indexOf('}', open + 1);
        String tag = open >= 0 && close > open + 1 ? key.substring(open + 1, close) : key;
        return CRC16.crc16(tag.getBytes(StandardCharsets.UTF_8)) % 16384;
    }

    @Test
    void everyKeyOfAnAccountSharesOneClusterSlotAndProviderStateHasItsOwn() {
        store.admit(admitReq(LEAF, new SlotRequest(ACCOUNT, 10, 60 * SEC)));
        store.admit(admitReq(OTHER, null));
        store.tryTakeRetry("aws", 500);
        List<String> keys = store.scan(store.keys().scanPattern());
        RedisKeys k = store.keys();
        assertThat(keys).containsExactlyInAnyOrder(k.leaf(LEAF), k.leaf(OTHER), k.account(ACCOUNT), k.bulkhead(ACCOUNT),
                k.global("aws"), k.budget("aws"), k.registry(), k.processes());
        Set<Integer> accountSlots = List.of(k.leaf(LEAF), k.leaf(OTHER), k.account(ACCOUNT), k.bulkhead(ACCOUNT))
                .stream().map(RedisStateStoreTest::slot).collect(Collectors.toSet());
        assertThat(accountSlots).hasSize(1);
        assertThat(slot(k.global("aws"))).isEqualTo(slot(k.budget("aws")));
        assertThat(k.leaf(LEAF)).isEqualTo("{unit:aws:123456789012}:leaf2:us-east-1/ec2/DescribeSubnets");
        for (String key : keys) {
            assertThat(k.parse(key)).as(key).isPresent();
        }
    }

    @Test
    void keysEncodeOddScopePartsAndReadThemBack() {
        RedisKeys k = new RedisKeys("x");
        Scope odd = Scope.of("azure", "sub:{1}*?", null, "Microsoft.Network", "op with space");
        String key = k.leaf(odd);
        assertThat(key).doesNotContain(" ").doesNotContain("*").startsWith("{x:azure:sub%3A%7B1%7D%2A%3F}:leaf2:");
        assertThat(k.parse(key).orElseThrow().scope()).isEqualTo(odd);
        assertThat(k.parse("{other:aws:1}:leaf://s/")).isEmpty();
        assertThatThrownBy(() -> new RedisKeys("a:b")).hasMessageContaining("key prefix must match");
    }

    /**
     * A told estate is part of the account's hash tag: its leaves, account bucket, bulkhead and index keep one slot,
     * apart from the same account's state without an estate; provider-wide state stays the prefix's.
     */
    @Test
    void anEstateIsPartOfTheAccountsKeysAndIsReadBack() {
        store.admit(admitReq(LEAF, null)); // before the estate is told (discovery)
        String sim = "aws:123456789012@http://127.0.0.1:4566";
        assertThat(store.useEstate("aws", sim)).isZero();
        store.admit(admitReq(LEAF, new SlotRequest(ACCOUNT, 10, 60 * SEC)));
        RedisKeys k = store.keys();
        assertThat(k.leaf(LEAF)).as("the estate's endpoint: account ids are unique there, and every process mapping "
                + "the account shares its quota whatever identity its configuration names")
                .isEqualTo("{unit:aws:123456789012:http%3A%2F%2F127.0.0.1%3A4566}:leaf2:us-east-1/ec2/DescribeSubnets");
        String shared = "aws:*@http://127.0.0.1:4566";
        assertThat(RedisKeys.shared(sim)).isEqualTo(shared);
        assertThat(k.parse(k.leaf(LEAF))).hasValue(new RedisKeys.Parsed(RedisKeys.Kind.LEAF, LEAF, shared));
        assertThat(k.parse(k.bulkhead(ACCOUNT))).hasValue(new RedisKeys.Parsed(RedisKeys.Kind.BULKHEAD, ACCOUNT, shared));
        RedisKeys otherIdentity = new RedisKeys("unit", p -> "aws:999999999999@http://127.0.0.1:4566");
        assertThat(otherIdentity.leaf(LEAF)).as("another identity at the same endpoint: the same keys").isEqualTo(k.leaf(LEAF));
        assertThat(RedisKeys.selects("aws:123456789012@http", shared)).isTrue();
        assertThat(RedisKeys.selects("aws:123456789012@aws", shared)).isFalse();
        assertThat(RedisKeys.selects("azure:t@http://127.0.0.1:4566", shared)).isFalse();
        assertThat(RedisKeys.selects("aws:", shared)).isTrue();
        assertThat(java.util.stream.Stream.of(k.leaf(LEAF), k.account(ACCOUNT), k.bulkhead(ACCOUNT), k.troubled(ACCOUNT))
                .map(RedisStateStoreTest::slot).collect(Collectors.toSet())).hasSize(1);
        assertThat(k.global("aws")).isEqualTo("{unit:aws}:global");
        List<String> leaves = store.scan(k.leafPattern());
        assertThat(leaves).containsExactlyInAnyOrder(new RedisKeys("unit").leaf(LEAF), k.leaf(LEAF));
        assertThat(store.snapshot().leaves()).as("this store's estate's only").hasSize(1);
        assertThat(k.parse("{unit:aws:1:}:leaf2:r/s/o")).as("an empty estate part").isEmpty();
    }

    /**
     * Rates learned before estates (keys without one: an older cloudg, or calls before discovery) are not used by
     * a map of an estate, and not dropped silently: one INFO line says so when the estate is told.
     */
    @Test
    void ratesLearnedWithoutAnEstateAreAnnouncedInOneLine() {
        store.admit(admitReq(LEAF, null));
        store.record(new OutcomeRequest(LEAF, LIMIT, AttemptOutcome.THROTTLED, -1, BREAKER, CallVerdict.NONE, 0, null));
        ch.qos.logback.classic.Logger logger = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger("cloudg.ratelimit");
        ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> log = new ch.qos.logback.core.read.ListAppender<>();
        log.start();
        logger.addAppender(log);
        try (RedisStateStore next = RedisStateStore.builder(client).keyPrefix("unit").build()) {
            assertThat(next.useEstate("aws", "aws:123456789012@aws")).as("not the estate's").isZero();
        } finally {
            logger.detachAppender(log);
        }
        assertThat(log.list).filteredOn(e -> e.getFormattedMessage().contains("name no estate")).singleElement()
                .satisfies(e -> {
                    assertThat(e.getLevel()).isEqualTo(ch.qos.logback.classic.Level.INFO);
                    assertThat(e.getFormattedMessage()).startsWith("aws: 1 learned rate(s) in ")
                            .contains("--estate none");
                });
        assertThat(store.snapshot().leaves()).as("still there, for a store that tells no estate").hasSize(1);
    }

    /** A server that lost its keys and scripts (a restart without persistence) gets the registry back. */
    @Test
    void aServerThatLostEverythingGetsTheAccountsRegisteredAgain() {
        store.admit(admitReq(LEAF, null));
        client.getKeys().flushall();
        client.getScript().scriptFlush();
        store.admit(admitReq(LEAF, null)); // finds the scripts gone: registers the account again
        store.record(new OutcomeRequest(LEAF, LIMIT, AttemptOutcome.THROTTLED, -1, BREAKER, CallVerdict.NONE, 0, null));
        assertThat(store.troubled().leaves()).extracting(l -> l.leaf()).containsExactly(LEAF);
    }

    @Test
    void scriptsComeBackAfterTheServerForgetsThem() {
        store.admit(admitReq(LEAF, null));
        client.getScript().scriptFlush();
        assertThat(store.admit(admitReq(LEAF, null)).rejected()).isFalse();
        assertThat(store.record(new OutcomeRequest(LEAF, LIMIT, AttemptOutcome.THROTTLED, -1, BREAKER, CallVerdict.NONE, 0,
                null)).rateRps()).isEqualTo(10.0);
        assertThat(store.tryTakeRetry("aws", 5)).isTrue();
        assertThat(client.getScript().scriptExists(Script.ADMIT.sha, Script.RECORD.sha, Script.BUDGET.sha))
                .containsOnly(true);
    }

    @Test
    void anUnknownStateFormatIsRefusedWithTheKeyNamed() {
        store.admit(admitReq(LEAF, null));
        String key = store.keys().leaf(LEAF);
        client.getMap(key, StringCodec.INSTANCE).fastPut("v", "99");
        assertThatThrownBy(() -> store.admit(admitReq(LEAF, null)))
                .isInstanceOf(StateFormatException.class)
                .hasMessageContaining(key)
                .hasMessageContaining("format version 99, but this cloudg reads only version 1");
        assertThatThrownBy(() -> store.snapshot()).isInstanceOf(StateFormatException.class).hasMessageContaining(key);
        // troubled() reads only the leaves in an index: its refusal is in troubledReadsTheAccountsIndexes...
        client.getMap(store.keys().budget("aws"), StringCodec.INSTANCE).fastPut("millis", "5");
        assertThatThrownBy(() -> store.tryTakeRetry("aws", 5)).isInstanceOf(StateFormatException.class)
                .hasMessageContaining("version (none)");
    }

    /**
     * Every hash keeps its TTL lazily (cloudg.lua's keep_until): a write sets it to 1.5 TTLs, and a later write
     * refreshes it only once less than one TTL is left, so state outlives its last write by 1 to 1.5 TTLs at
     * one PEXPIRE per half TTL; the bulkhead's key also outlives every lease in it, and is read (for its x) only
     * when the copy the leaf keeps (bx) runs low. The server's real TTL
     * shows whether a script refreshed it; the script decides by (injected) server time.
     */
    @Test
    void learnedStateOutlivesItsLastWriteByOneToOneAndAHalfTtls() {
        ManualTimeSource t = new ManualTimeSource();
        t.advance(Duration.ofHours(1));
        long t0 = t.nanoTime();
        RedisStateStore s = RedisStateStore.builder(client).keyPrefix("unit-ttl").learnedTtl(Duration.ofSeconds(60))
                .clock(StoreClock.injected(t)).build();
        s.clear();
        try {
            AdmitRequest admit = new AdmitRequest("aws", null, ACCOUNT, null, LEAF, LIMIT, BREAKER,
                    new SlotRequest(ACCOUNT, 10, 90 * SEC), 1);
            io.cloudg.resilience.spi.SlotLease lease = s.admit(admit).lease();
            String leaf = s.keys().leaf(LEAF);
            String leases = s.keys().bulkhead(ACCOUNT);
            assertThat(client.getBucket(leaf).remainTimeToLive()).as("1.5 TTLs").isBetween(85_000L, 90_000L);
            assertThat(client.getBucket(leases).remainTimeToLive()).as("1.5 x (one lease + 1 s)")
                    .isBetween(131_000L, 136_500L);
            // the bulkhead is read only when the leaf's copy of its x (bx) has less than one TTL (91 s) left
            long x = t0 + 136_500_000_000L;
            assertThat(Long.parseLong(bulkheadHash(s).get("x"))).isEqualTo(x);
            assertThat(s.readHashes(List.of(leaf)).get(0).get("bx")).isEqualTo(Long.toString(x));
            client.getBucket(leaf).expire(Duration.ofSeconds(70));
            client.getBucket(leases).expire(Duration.ofSeconds(100));
            // the leaf: 70 s of its 90 left at +20 s, not refreshed; 59 s left at +31 s, refreshed
            refreshedOnlyOnceLow(s, t, admit, leaf, 70_000L, 20, 11, 85_000L);
            // the bulkhead: 91.5 s of its 136.5 left at +45 s, not read; 90.5 s left at +46 s, refreshed
            refreshedOnlyOnceLow(s, t, admit, leases, 100_000L, 14, 1, 131_000L);
            long x2 = t0 + 46 * SEC + 136_500_000_000L;
            assertThat(Long.parseLong(bulkheadHash(s).get("x"))).isEqualTo(x2);
            assertThat(s.readHashes(List.of(leaf)).get(0).get("bx")).isEqualTo(Long.toString(x2));
            client.getBucket(leaf).expire(Duration.ofSeconds(5));
            s.record(new OutcomeRequest(LEAF, LIMIT, AttemptOutcome.SUCCESS, -1, BREAKER, CallVerdict.SUCCESS, 0,
                    lease));
            assertThat(client.getBucket(leaf).remainTimeToLive()).as("a success that changes nothing writes nothing")
                    .isLessThanOrEqualTo(5_000L);
        } finally {
            s.clear();
            s.close();
        }
    }

    @Test
    void productionTimeIsRedisTime() {
        Object t = client.getScript(StringCodec.INSTANCE).eval(RScript.Mode.READ_ONLY,
                "local t = redis.call('TIME') return t[1]", RScript.ReturnType.VALUE);
        long serverSeconds = Long.parseLong((String) t);
        long now = store.now();
        assertThat(now / SEC).isBetween(serverSeconds - 1, serverSeconds + 1);
        store.admit(admitReq(LEAF, null));
        store.record(new OutcomeRequest(LEAF, LIMIT, AttemptOutcome.THROTTLED, 30 * SEC, BREAKER, CallVerdict.NONE, 0,
                null));
        long paused = store.snapshot().leaves().get(0).pausedForNanos();
        assertThat(paused).isGreaterThan(25 * SEC).isLessThanOrEqualTo(30 * SEC);
    }

    @Test
    void anUnreachableServerIsReportedAsUnavailable() {
        RedisSettings s = RedisSettings.builder().url("redis://127.0.0.1:" + TestRedis.freePort()).timeoutMs(300)
                .connectTimeoutMs(300).build();
        try (StateStore dead = StateStores.redisStore(s, RedisClients.create(s, k -> null), true)) {
            assertThatThrownBy(() -> dead.admit(admitReq(LEAF, null)))
                    .isInstanceOf(StateStoreUnavailableException.class)
                    .hasMessageContaining("could not be reached during admit");
        }
    }

    @Test
    void theFactoryBuildsADegradingRedisStoreThatKeepsGoingWithoutRedis() {
        RateLimitConfig base = RateLimitConfig.defaults();
        RedisSettings s = RedisSettings.builder().url("redis://127.0.0.1:" + TestRedis.freePort()).timeoutMs(300)
                .connectTimeoutMs(300).fleetSizeHint(4).degradeAfterSeconds(0.0).build(); // 0: at the first failure
        try (StateStore st = StateStores.degrading(s, k -> null, io.cloudg.resilience.time.TimeSource.system())) {
            assertThat(st).isInstanceOf(DegradingStateStore.class);
            assertThat(st.admit(admitReq(LEAF, null)).rejected()).isFalse();
            assertThat(st.status().orElseThrow().mode()).isEqualTo("degraded");
        }
        assertThatThrownBy(() -> StateStores.degrading(base.withBackend(RateLimitConfig.Backend.REDIS,
                RedisSettings.DEFAULTS).redis(), k -> null, io.cloudg.resilience.time.TimeSource.system()))
                .isInstanceOf(io.cloudg.resilience.config.ConfigException.class)
                .hasMessageStartingWith("ratelimit.redis.url: is not set, and ratelimit.backend is redis");
    }

    @Test
    void adminShowsAndResetsStateUnderAScopePrefix() {
        store.admit(admitReq(LEAF, new SlotRequest(ACCOUNT, 10, 60 * SEC)));
        store.record(new OutcomeRequest(LEAF, LIMIT, AttemptOutcome.THROTTLED, -1, BREAKER, CallVerdict.NONE, 0, null));
        store.admit(admitReq(OTHER, null));
        Scope gcp = Scope.of("gcp", "proj-1", null, "cloudasset", "ListAssets");
        store.admit(new AdmitRequest("gcp", null, gcp.accountScope(), null, gcp, new LeafLimit(1.5, 10, 0.05, true),
                BREAKER, null, 1));
        RedisRateLimitAdmin admin = new RedisRateLimitAdmin(store);

        List<RateLimitRow> aws = admin.show("aws/123456789012/us-east-1");
        assertThat(aws).hasSize(1);
        RateLimitRow leaf = aws.get(0);
        assertThat(leaf.scope()).isEqualTo(LEAF);
        assertThat(leaf.kind()).isEqualTo(RedisKeys.Kind.LEAF);
        assertThat(leaf.rateRps()).isEqualTo(10.0);
        assertThat(leaf.ceilingRps()).isEqualTo(20.0);
        assertThat(leaf.throttles()).isEqualTo(1);
        assertThat(leaf.breaker()).isEqualTo(BreakerState.Phase.CLOSED);
        assertThat(leaf.slowed()).isTrue();
        assertThat(leaf.ageSeconds()).isBetween(0.0, 5.0);

        assertThat(admin.show("aws").stream().map(RateLimitRow::kind))
                .contains(RedisKeys.Kind.LEAF, RedisKeys.Kind.ACCOUNT, RedisKeys.Kind.BULKHEAD, RedisKeys.Kind.GLOBAL);
        assertThat(admin.show("aws").stream().filter(r -> r.kind() == RedisKeys.Kind.BULKHEAD).findFirst()
                .orElseThrow().value()).isEqualTo(1.0);
        assertThat(admin.show("aws/1234")).as("whole parts only").isEmpty();
        assertThat(admin.show(null)).extracting(RateLimitRow::scope).contains(gcp);

        long removed = admin.reset("aws/123456789012");
        assertThat(removed).isEqualTo(5); // two leaves, account bucket, bulkhead, the index of troubled leaves
        assertThat(admin.show("aws/123456789012")).isEmpty();
        assertThat(admin.show("gcp")).hasSize(1);
        assertThat(admin.show("aws")).extracting(RateLimitRow::kind).containsExactly(RedisKeys.Kind.GLOBAL);
    }

    @Test
    void snapshotReadsLeavesAndBreakersOfThisPrefixOnly() {
        ManualTimeSource t = new ManualTimeSource();
        t.advance(Duration.ofHours(1));
        RedisStateStore other = RedisStateStore.builder(client).keyPrefix("unit-other").clock(StoreClock.injected(t))
                .build();
        other.admit(admitReq(OTHER, null));
        store.admit(admitReq(LEAF, null));
        assertThat(store.snapshot().leaves()).extracting(l -> l.leaf()).containsExactly(LEAF);
        assertThat(other.snapshot().leaves()).extracting(l -> l.leaf()).containsExactly(OTHER);
        other.clear();
    }

    @Test
    void aSnapshotOfMoreLeavesThanOneReadBatchHoldsThemAll() {
        int n = RedisStateStore.READ_BATCH * 2 + 7;
        for (int i = 0; i < n; i++) {
            store.admit(admitReq(Scope.of("aws", "123456789012", "us-east-1", "ec2", "Describe" + i), null));
        }
        assertThat(store.snapshot().leaves()).hasSize(n);
    }

    @Test
    void troubledReadsTheAccountsIndexesWhichHoldOnlyLeavesThatWereTroubled() {
        int n = RedisStateStore.READ_BATCH * 2 + 7;
        List<Scope> slowed = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Scope leaf = Scope.of("aws", "123456789012", "us-east-1", "ec2", "Describe" + i);
            store.admit(admitReq(leaf, null));
            if (i % 700 == 3) {
                store.record(new OutcomeRequest(leaf, LIMIT, AttemptOutcome.THROTTLED, -1, BREAKER, CallVerdict.NONE, 0,
                        null));
                slowed.add(leaf);
            }
        }
        // more accounts with an index than one batch of index reads
        List<Scope> others = new ArrayList<>();
        for (int i = 0; i < RedisStateStore.READ_BATCH + 5; i++) {
            Scope leaf = Scope.of("aws", String.format("2%011d", i), "eu-west-1", "iam", null);
            store.admit(admitReq(leaf, null));
            store.record(new OutcomeRequest(leaf, LIMIT, AttemptOutcome.THROTTLED, -1, BREAKER, CallVerdict.NONE, 0,
                    null));
            others.add(leaf);
        }
        RedisKeys k = store.keys();
        String index = k.troubled(ACCOUNT);
        assertThat(k.parse(index)).hasValue(new RedisKeys.Parsed(RedisKeys.Kind.TROUBLED, ACCOUNT));
        assertThat(slot(index)).isEqualTo(slot(k.leaf(LEAF)));
        assertThat(client.getSet(index, StringCodec.INSTANCE).readAll()).as("no healthy leaf ever enters it")
                .containsExactlyInAnyOrderElementsOf(slowed.stream().map(k::leaf).toList());
        assertThat(client.getKeys().remainTimeToLive(index)).isBetween(Duration.ofHours(35).toMillis(),
                Duration.ofHours(36).toMillis());

        assertThat(client.getScoredSortedSet(k.registry(), StringCodec.INSTANCE).size()).as("every account used")
                .isEqualTo(others.size() + 1);
        assertThat(k.parse(k.registry())).hasValueSatisfying(p -> assertThat(p.kind()).isEqualTo(RedisKeys.Kind.REGISTRY));

        List<Scope> all = new ArrayList<>(slowed);
        all.addAll(others);
        assertThat(store.troubled().leaves()).extracting(l -> l.leaf()).containsExactlyInAnyOrderElementsOf(all);
        assertThat(store.troubled().breakers()).isEmpty();

        client.getKeys().delete(k.leaf(slowed.get(1))); // a leaf gone (its TTL, a reset): read, then pruned
        assertThat(store.troubled().leaves()).extracting(l -> l.leaf()).doesNotContain(slowed.get(1));
        assertThat(client.getSet(index, StringCodec.INSTANCE).readAll()).doesNotContain(k.leaf(slowed.get(1)));

        String key = k.leaf(slowed.get(0));
        client.getMap(key, StringCodec.INSTANCE).fastPut("v", "9");
        assertThatThrownBy(() -> store.troubled()).isInstanceOf(StateFormatException.class).hasMessageContaining(key);
    }

    /**
     * The registry lists an account for 2 TTLs after a store last said it uses it (a leaf outlives its last
     * write by at most 1.5): then it lapses, as the account's leaves have by then; a store that admits in the
     * account again registers it again.
     */
    @Test
    void anAccountLapsesFromTheRegistryTwoTtlsAfterItsLastRegistration() {
        ManualTimeSource t = new ManualTimeSource();
        t.advance(Duration.ofHours(1));
        RedisStateStore st = RedisStateStore.builder(client).keyPrefix("unit-registry").clock(StoreClock.injected(t))
                .learnedTtl(Duration.ofHours(1)).build();
        try {
            st.admit(admitReq(LEAF, null));
            st.record(new OutcomeRequest(LEAF, LIMIT, AttemptOutcome.THROTTLED, -1, BREAKER, CallVerdict.NONE, 0, null));
            t.advance(Duration.ofHours(2).minusSeconds(1));
            assertThat(st.troubled().leaves()).extracting(l -> l.leaf()).containsExactly(LEAF);
            t.advance(Duration.ofSeconds(2));
            assertThat(st.troubled().leaves()).as("lapsed").isEmpty();
            assertThat(client.getScoredSortedSet(st.keys().registry(), StringCodec.INSTANCE).size()).isZero();
        } finally {
            st.clear();
            st.close();
        }
    }

    /**
     * When to say again that the store uses an account (every half TTL) is read on the governor's clock, the
     * store's {@code TimeSource}; the registry's score stays Redis time. So a governor clock moved past half a
     * TTL registers again at the next admission, and one that has not moved never does, however much real
     * time passes.
     */
    @Test
    void anAccountIsRegisteredAgainOnceTheGovernorsClockPassesHalfATtl() {
        ManualTimeSource governor = new ManualTimeSource();
        RedisStateStore st = RedisStateStore.builder(client).keyPrefix("unit-cadence").time(governor)
                .learnedTtl(Duration.ofHours(1)).build();
        var registry = client.getScoredSortedSet(st.keys().registry(), StringCodec.INSTANCE);
        String index = st.keys().troubled(ACCOUNT);
        AdmitRequest admit = new AdmitRequest("aws", null, ACCOUNT, null, LEAF, LIMIT, BREAKER, null, 1);
        try {
            st.admit(admit);
            Double first = registry.getScore(index);
            assertThat(first).as("registered at its first admission, scored in Redis time")
                    .isCloseTo((double) st.now(), org.assertj.core.data.Offset.offset(60e9));
            long calls = st.runner().calls();
            governor.advance(Duration.ofMinutes(29));
            st.admit(admit);
            // every admission 5 s or more after the last heartbeat on the governor's clock also says the process
            // is live (Members), without waiting for the reply
            assertThat(st.runner().calls()).as("the admission and the heartbeat, no registration").isEqualTo(calls + 2);
            assertThat(registry.getScore(index)).isEqualTo(first);
            governor.advance(Duration.ofMinutes(2));
            st.admit(admit);
            assertThat(st.runner().calls()).as("the admission, the heartbeat and the registration").isEqualTo(calls + 5);
            assertThat(registry.getScore(index)).as("registered again, at Redis's time").isGreaterThan(first);
        } finally {
            st.clear();
            st.close();
        }
    }

    /**
     * {@code close()} waits on the runner's drain before it lets the connections go, so that an outcome recorded
     * without waiting (a throttle halving the rate, a slot's release) reaches Redis even when the lane had not sent
     * it yet (a governor closed right after its last throttle on a loaded machine kept the rate it had, and the slot
     * until its lease lapsed). The drain completes only once what was queued before it is answered: here the lanes
     * are held while it is asked for.
     */
    @Test
    void theDrainCloseWaitsOnCompletesOnlyOnceWhatWasQueuedIsAnswered() throws Exception {
        RedisStateStore st = RedisStateStore.builder(client).keyPrefix("unit-drain").build();
        st.clear();
        try {
            st.admit(admitReq(LEAF, null));
            double before = st.leafState(LEAF).rate();
            CompletableFuture<Void> outcome;
            CompletableFuture<Void> drained;
            st.runner().hold(true);
            try {
                outcome = st.recordAsync(new OutcomeRequest(LEAF, LIMIT, AttemptOutcome.THROTTLED, -1, BREAKER,
                        CallVerdict.NONE, 0, null)).toCompletableFuture();
                drained = st.runner().drain();
                assertThat(st.runner().queued()).as("the throttle, and the drain's PING behind it").isEqualTo(2);
                assertThat(drained).as("nothing sent yet").isNotDone();
            } finally {
                st.runner().hold(false);
            }
            drained.get(30, TimeUnit.SECONDS);
            assertThat(outcome).as("answered before the drain completed").isDone();
            assertThat(st.leafState(LEAF).rate()).isEqualTo(before / 2);
            assertThat(st.runner().drain()).as("an idle runner: nothing to wait for").isDone();
        } finally {
            st.clear();
            st.close();
        }
    }

    /** Runs each admission on its own thread while the store's lanes are held, so that they go out as one batch. */
    private static List<CompletableFuture<Admission>> admitAsOneBatch(RedisStateStore st, List<AdmitRequest> requests)
            throws Exception {
        st.runner().hold(true);
        try {
            List<CompletableFuture<Admission>> out = new ArrayList<>();
            for (AdmitRequest r : requests) {
                out.add(Threads.async(() -> st.admit(r)));
            }
            Poll.until("every admission queued behind the held lanes", Duration.ofSeconds(10),
                    () -> st.runner().queued() >= requests.size(), () -> st.runner().queued() + " queued");
            assertThat(st.runner().queued()).isEqualTo(requests.size());
            return out;
        } finally {
            st.runner().hold(false);
        }
    }

    @Test
    void admissionsBatchedInOneRunAreTheSameAsOneByOne() throws Exception {
        ManualTimeSource t = new ManualTimeSource();
        t.advance(Duration.ofHours(1));
        RedisStateStore st = RedisStateStore.builder(client).keyPrefix("unit-batch").clock(StoreClock.injected(t)).build();
        try {
            LeafLimit tight = new LeafLimit(10, 10, 1, true);
            AdmitRequest one = new AdmitRequest("aws", null, ACCOUNT, null, LEAF, tight, BREAKER,
                    new SlotRequest(ACCOUNT, 100, 60 * SEC), 1);
            st.admit(one); // the leaf exists: the batch takes the common path (a new leaf: the general one)
            List<AdmitRequest> rs = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                rs.add(one);
            }
            List<Long> waits = new ArrayList<>();
            List<Long> leases = new ArrayList<>();
            long batches = st.runner().batches();
            for (CompletableFuture<Admission> f : admitAsOneBatch(st, rs)) {
                Admission a = f.get(10, TimeUnit.SECONDS);
                waits.add(a.waitNanos());
                if (a.lease() != null) {
                    leases.add(a.lease().id());
                }
            }
            // 10 - 5 headroom = 5 tokens, one taken before: 4 more go at once, then one every 100 ms, in
            // whatever order the threads queued
            List<Long> expected = new ArrayList<>();
            double tokens = 5.0 - 1;
            for (int i = 0; i < 20; i++) {
                tokens -= 1;
                expected.add(tokens >= 0 ? 0 : (long) Math.ceil(-tokens * SEC / 10));
            }
            assertThat(st.runner().batches()).as("one batch run").isEqualTo(batches + 1);
            assertThat(waits).containsExactlyInAnyOrderElementsOf(expected);
            assertThat(leases).hasSize(4).doesNotHaveDuplicates();
            assertThat(st.slotsInUse(ACCOUNT)).isEqualTo(5);
        } finally {
            st.clear();
            st.close();
        }
    }

    @Test
    void aLeafKeepsItsHotFieldsPackedAndReadersSeeThemByName() {
        Admission a = store.admit(admitReq(LEAF, null));
        assertThat(a.rejected()).isFalse();
        String key = store.keys().leaf(LEAF);
        java.util.Map<String, String> raw = client.<String, String>getMap(key, StringCodec.INSTANCE).readAllMap();
        assertThat(raw).containsKeys("v", "scope", "h").doesNotContainKeys("tokens", "rate", "refilled_at", "x");
        java.util.Map<String, String> read = store.readHashes(List.of(key)).get(0);
        io.cloudg.resilience.core.LeafState state = store.leafState(LEAF);
        assertThat(Double.parseDouble(read.get("tokens"))).isEqualTo(state.tokens());
        assertThat(Double.parseDouble(read.get("rate"))).isEqualTo(LIMIT.ceilingRps());
        assertThat(read).containsKeys("refilled_at", "ceiling", "x", "updated_at", "b_phase", "b_failures");
        // a packed field of another length is refused, by the scripts and by the readers, naming the key
        client.<byte[], byte[]>getMap(key, org.redisson.client.codec.ByteArrayCodec.INSTANCE)
                .fastPut(new byte[] {'h'}, new byte[] {1, 2, 3});
        assertThatThrownBy(() -> store.admit(admitReq(LEAF, null))).isInstanceOf(StateFormatException.class)
                .hasMessageContaining(key).hasMessageContaining("packed field h of 3 bytes");
        assertThatThrownBy(() -> store.snapshot()).isInstanceOf(StateFormatException.class).hasMessageContaining(key)
                .hasMessageContaining("must hold 72 bytes, but held 3");
    }

    @Test
    void aCallThatFailsInABatchFailsAloneAndTheOthersStillRun() throws Exception {
        store.admit(admitReq(LEAF, null));
        store.admit(admitReq(OTHER, null));
        Scope bad = Scope.of("aws", "123456789012", "us-east-1", "ec2", "DescribeBad");
        store.admit(admitReq(bad, null));
        client.getMap(store.keys().leaf(bad), StringCodec.INSTANCE).fastPut("v", "99");
        long batches = store.runner().batches();
        List<CompletableFuture<Admission>> fs = admitAsOneBatch(store,
                List.of(admitReq(LEAF, null), admitReq(bad, null), admitReq(OTHER, null)));
        int failed = 0;
        for (CompletableFuture<Admission> f : fs) {
            try {
                assertThat(f.get(10, TimeUnit.SECONDS).rejected()).isFalse();
            } catch (java.util.concurrent.ExecutionException e) {
                assertThat(e.getCause()).isInstanceOf(StateFormatException.class)
                        .hasMessageContaining(store.keys().leaf(bad));
                failed++;
            }
        }
        assertThat(failed).isEqualTo(1);
        assertThat(store.runner().batches()).as("one batch run").isEqualTo(batches + 1);
    }

    // ------------------------------------------------------------------ plain successes

    static final LeafLimit STEADY = new LeafLimit(1000, 1000, 1, true);

    private static AdmitRequest slotted(int maxConcurrency) {
        return new AdmitRequest("aws", null, ACCOUNT, null, LEAF, STEADY, BREAKER,
                new SlotRequest(ACCOUNT, maxConcurrency, 60 * SEC), 1);
    }

    private static OutcomeRequest success(io.cloudg.resilience.spi.SlotLease release) {
        return new OutcomeRequest(LEAF, STEADY, AttemptOutcome.SUCCESS, -1, BREAKER, CallVerdict.SUCCESS, 0, release);
    }

    /** The lease fields of the bulkhead's hash, read straight from Redis (slotsInUse would send the deferred releases). */
    private Set<String> leaseFields(RedisStateStore s) {
        return client.<String, String>getMap(s.keys().bulkhead(ACCOUNT), StringCodec.INSTANCE).readAllKeySet().stream()
                .filter(f -> f.chars().allMatch(Character::isDigit)).collect(Collectors.toSet());
    }

    private RedisStateStore heldBack(Duration delay) {
        RedisStateStore s = RedisStateStore.builder(client).keyPrefix("plain").releaseDelay(delay).build();
        s.clear();
        return s;
    }

    interface StoreTest {
        void run(RedisStateStore s) throws Exception;
    }

    /** Runs {@code test} on a store of its own whose releases wait {@code delay}, cleared and closed after. */
    private void withHeldBack(Duration delay, StoreTest test) throws Exception {
        RedisStateStore s = heldBack(delay);
        try {
            test.run(s);
        } finally {
            s.clear();
            s.close();
        }
    }

    /** An admission of LEAF that finds it steady (the leaf exists: the second admission takes the common path). */
    private static Admission steadyAdmission(RedisStateStore s, int maxConcurrency) {
        s.record(success(s.admit(slotted(maxConcurrency)).lease()));
        return s.admit(slotted(maxConcurrency));
    }

    @Test
    void aPlainSuccessOfASteadyLeafRunsNoScriptAndItsReleaseGoesOutBeforeItsBulkheadsNextSlotOperation() throws Exception {
        withHeldBack(Duration.ofDays(1), s -> {
            Admission first = s.admit(slotted(10)); // a new leaf: the general case, which answers not steady
            long before = s.runner().calls();
            s.recordAsync(success(first.lease())).toCompletableFuture().get(10, TimeUnit.SECONDS);
            assertThat(s.runner().calls()).as("not steady yet: the outcome script ran").isEqualTo(before + 1);

            Admission second = s.admit(slotted(10));
            before = s.runner().calls();
            s.recordAsync(success(second.lease())).toCompletableFuture().get(10, TimeUnit.SECONDS);
            assertThat(s.runner().calls()).as("steady: no script").isEqualTo(before);
            assertThat(leaseFields(s)).as("held back").containsExactly(Long.toString(second.lease().id()));
            assertThat(s.slotsInUse(ACCOUNT)).as("sent before the count").isZero();
            assertThat(leaseFields(s)).isEmpty();
            assertThat(s.breakerState(LEAF).failures()).isZero();
        });
    }

    @Test
    void aFullBulkheadTakesTheReleasesThisProcessHeldBackFirst() throws Exception {
        withHeldBack(Duration.ofDays(1), s -> {
            Admission held = steadyAdmission(s, 1);
            assertThat(held.lease()).isNotNull();
            s.recordAsync(success(held.lease()));
            assertThat(leaseFields(s)).as("held back").hasSize(1);
            Admission next = s.admit(slotted(1));
            assertThat(next.lease()).as("the in-memory store has a slot free here too").isNotNull();
            assertThat(leaseFields(s)).containsExactly(Long.toString(next.lease().id()));
        });
    }

    @Test
    void anotherOutcomeOfTheLeafQueuedAfterASteadyAdmissionMakesTheSuccessRunItsScript() throws Exception {
        withHeldBack(Duration.ofDays(1), s -> {
            Admission steady = steadyAdmission(s, 10);
            // another caller's failure lands between this call's admission and its success
            s.record(new OutcomeRequest(LEAF, STEADY, AttemptOutcome.TRANSIENT, -1, BREAKER, CallVerdict.FAILURE, 0, null));
            assertThat(s.breakerState(LEAF).failures()).isEqualTo(1);
            long before = s.runner().calls();
            s.recordAsync(success(steady.lease())).toCompletableFuture().get(10, TimeUnit.SECONDS);
            assertThat(s.runner().calls()).isEqualTo(before + 1);
            assertThat(s.breakerState(LEAF).failures()).as("the success reset them, as in memory").isZero();
            assertThat(leaseFields(s)).isEmpty();
        });
    }

    /**
     * A plain success that runs its script (its admission's steady answer was voided) voids no other steady
     * answer: a plain success cannot leave a steady leaf unsteady. (When it did, the callers of a hot leaf
     * voided each other's answers without end, and every success ran its script.)
     */
    @Test
    void aPlainSuccessThatRunsItsScriptVoidsNoOtherSteadyAnswer() throws Exception {
        AdmitRequest admit = new AdmitRequest("aws", null, ACCOUNT, null, LEAF, STEADY, BREAKER, null, 1);
        store.record(success(store.admit(admit).lease())); // a new leaf, now steady
        store.admit(admit); // first caller: steady
        // another outcome of the leaf (changing nothing, but not a plain success) voids the first's answer
        store.record(new OutcomeRequest(LEAF, STEADY, AttemptOutcome.TRANSIENT, -1, BREAKER, CallVerdict.NONE, 0, null));
        store.runner().hold(true);
        CompletableFuture<Admission> second;
        CompletableFuture<Void> first;
        try {
            second = Threads.async(() -> store.admit(admit));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (store.runner().queued() < 1 && System.nanoTime() < deadline) {
                Thread.onSpinWait(); // until the second caller's admission is queued (its steady answer to come)
            }
            assertThat(store.runner().queued()).as("the second admission, held").isEqualTo(1);
            long before = store.runner().calls();
            first = store.recordAsync(success(null)).toCompletableFuture();
            assertThat(store.runner().calls()).as("the first success: its answer was voided, its script runs")
                    .isEqualTo(before + 1);
        } finally {
            store.runner().hold(false); // a failed assertion leaves no caller waiting on a held lane
        }
        second.get(10, TimeUnit.SECONDS);
        first.get(10, TimeUnit.SECONDS);
        long before = store.runner().calls();
        store.recordAsync(success(null)).toCompletableFuture().get(10, TimeUnit.SECONDS);
        assertThat(store.runner().calls()).as("the second success: its steady answer stands").isEqualTo(before);
        assertThat(store.breakerState(LEAF).failures()).isZero();
    }

    @Test
    void heldBackReleasesGoOutOnTheirOwnAfterTheDelay() throws Exception {
        withHeldBack(Duration.ofMillis(1), s -> {
            Admission steady = steadyAdmission(s, 10);
            s.recordAsync(success(steady.lease()));
            s.releases().lastTimedFlush().get(10, TimeUnit.SECONDS).get(10, TimeUnit.SECONDS);
            assertThat(leaseFields(s)).as("released without another call").isEmpty();
        });
    }

    /**
     * The timer takes the bulkheads that have releases waiting, not every bulkhead: one that was sent by the
     * timer, or sent at once by a slot operation, is taken again by the timer when a release waits in it again.
     */
    @Test
    void theTimerSendsEveryLaterReleaseOfABulkheadItOrASlotOperationAlreadySent() throws Exception {
        withHeldBack(Duration.ofMillis(1), s -> {
            for (int round = 0; round < 3; round++) {
                Admission steady = steadyAdmission(s, 10);
                s.recordAsync(success(steady.lease()));
                if (round == 1) {
                    s.releases().flush(steady.lease().bulkhead()).get(10, TimeUnit.SECONDS); // as a slot operation does
                    assertThat(leaseFields(s)).as("sent at once, round %d", round).isEmpty();
                } else {
                    s.releases().lastTimedFlush().get(10, TimeUnit.SECONDS).get(10, TimeUnit.SECONDS);
                    assertThat(leaseFields(s)).as("sent by the timer, round %d", round).isEmpty();
                }
            }
        });
    }

    @Test
    void closeSendsTheReleasesHeldBack() throws Exception {
        RedisStateStore s = heldBack(Duration.ofDays(1));
        s.recordAsync(success(steadyAdmission(s, 10).lease()));
        assertThat(leaseFields(s)).hasSize(1);
        s.close();
        assertThat(leaseFields(s)).isEmpty();
        RedisStateStore cleaner = heldBack(Duration.ofDays(1));
        cleaner.close();
    }

    // ------------------------------------------------------------------ the bulkhead's lease counter

    static final long SLOT_N = 1L << 21; // cloudg.lua's SLOT_N: c = seq * SLOT_N + n

    private java.util.Map<String, String> bulkheadHash(RedisStateStore s) {
        return client.<String, String>getMap(s.keys().bulkhead(ACCOUNT), StringCodec.INSTANCE).readAllMap();
    }

    private long counter(RedisStateStore s) {
        return Long.parseLong(bulkheadHash(s).get("c"));
    }

    /** Calls of each command Redis ran (INFO commandstats), by name. */
    private static java.util.Map<String, Long> commandCalls() {
        java.util.Map<String, String> info = client.getRedisNodes(org.redisson.api.redisnode.RedisNodes.SINGLE)
                .getInstance().info(org.redisson.api.redisnode.RedisNode.InfoSection.COMMANDSTATS);
        java.util.Map<String, Long> out = new java.util.HashMap<>();
        info.forEach((k, v) -> {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("calls=(\\d+)").matcher(v);
            if (k.startsWith("cmdstat_") && m.find()) {
                out.put(k.substring("cmdstat_".length()), Long.parseLong(m.group(1)));
            }
        });
        return out;
    }

    private static java.util.Map<String, Long> delta(java.util.Map<String, Long> before, java.util.Map<String, Long> after) {
        java.util.Map<String, Long> d = new java.util.TreeMap<>();
        after.forEach((k, v) -> {
            long n = v - before.getOrDefault(k, 0L);
            if (n > 0) {
                d.put(k, n);
            }
        });
        return d;
    }

    /**
     * Advances the clock {@code quiet} seconds and admits: {@code key}'s real TTL stays at most {@code shortened}
     * ms (the test shortened it; the script did not refresh it); then {@code more} seconds: refreshed, above
     * {@code refreshed} ms.
     */
    private static void refreshedOnlyOnceLow(RedisStateStore s, ManualTimeSource t, AdmitRequest admit, String key,
            long shortened, int quiet, int more, long refreshed) {
        t.advance(Duration.ofSeconds(quiet));
        s.admit(admit);
        assertThat(client.getBucket(key).remainTimeToLive()).as(key + " not refreshed yet").isLessThanOrEqualTo(shortened);
        t.advance(Duration.ofSeconds(more));
        s.admit(admit);
        assertThat(client.getBucket(key).remainTimeToLive()).as(key + " refreshed").isGreaterThan(refreshed);
    }

    /** Runs {@code test} on a store of its own on the injected clock {@code t} (an hour in), cleared and closed after. */
    private static void withClockedStore(String prefix, Duration ttl, ManualTimeSource t, StoreTest test) throws Exception {
        t.advance(Duration.ofHours(1));
        RedisStateStore s = RedisStateStore.builder(client).keyPrefix(prefix).learnedTtl(ttl)
                .clock(StoreClock.injected(t)).build();
        s.clear();
        try {
            test.run(s);
        } finally {
            s.clear();
            s.close();
        }
    }

    /**
     * The common admission (an existing leaf with a closed breaker, a slot free by the counter) reads the leaf
     * once and the bulkhead not at all: the lease is one HINCRBY of the packed counter and one HSETNX.
     */
    @Test
    void aSlotIsOneHincrbyAndOneHsetnxWithNothingReadFromTheBulkhead() throws Exception {
        ManualTimeSource t = new ManualTimeSource();
        withClockedStore("lease-cmds", Duration.ofHours(24), t, s -> {
            s.admit(slotted(10)); // a new leaf and bulkhead
            s.admit(slotted(10)); // the leaf's common path; it learns the bulkhead's TTL
            java.util.Map<String, Long> before = commandCalls();
            Admission a = s.admit(slotted(10));
            java.util.Map<String, Long> ran = delta(before, commandCalls());
            ran.remove("info");
            ran.remove("evalsha");
            ran.remove("fcall");
            assertThat(a.lease()).isNotNull();
            assertThat(ran).as("the Redis commands of one admission")
                    .isEqualTo(java.util.Map.of("hmget", 1L, "hset", 1L, "hincrby", 1L, "hsetnx", 1L));
        });
    }

    /**
     * The counter's n (the lease fields as last counted plus those added since) is only an upper bound, since
     * a release is a bare HDEL: at the cap the leases are counted exactly, and, still full, the expired ones
     * are swept; a refused acquisition takes no id. Ids are consecutive.
     */
    @Test
    void theLeaseCounterCountsExactlyAtTheCapAndSweepsOnlyWhenFull() throws Exception {
        ManualTimeSource t = new ManualTimeSource();
        withClockedStore("lease-count", Duration.ofHours(24), t, s -> {
            SlotRequest three = new SlotRequest(ACCOUNT, 3, 10 * SEC);
            List<io.cloudg.resilience.spi.SlotLease> held = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                held.add(s.tryAcquireSlot(three));
            }
            assertThat(held).extracting(io.cloudg.resilience.spi.SlotLease::id).containsExactly(1L, 2L, 3L);
            assertThat(counter(s)).isEqualTo(3 * SLOT_N + 3);
            s.releaseSlot(held.get(0));
            s.releaseSlot(held.get(1));
            assertThat(counter(s)).as("a release leaves the counter alone").isEqualTo(3 * SLOT_N + 3);
            assertThat(s.tryAcquireSlot(three).id()).as("counted exactly: 1 held").isEqualTo(4);
            assertThat(counter(s)).isEqualTo(4 * SLOT_N + 2);
            assertThat(s.tryAcquireSlot(three).id()).isEqualTo(5);
            assertThat(s.tryAcquireSlot(three)).as("3 held").isNull();
            assertThat(counter(s)).as("the refused one took no id").isEqualTo(5 * SLOT_N + 3);
            t.advance(Duration.ofSeconds(5));
            assertThat(s.tryAcquireSlot(three)).as("full, and none expired").isNull();
            t.advance(Duration.ofSeconds(6));
            assertThat(bulkheadHash(s)).as("expired leases stay until someone needs the slot")
                    .containsKeys("3", "4", "5");
            assertThat(s.tryAcquireSlot(three).id()).as("full: the expired leases are swept").isEqualTo(6);
            assertThat(bulkheadHash(s).keySet()).containsExactlyInAnyOrder("v", "scope", "x", "c", "6");
            assertThat(counter(s)).isEqualTo(6 * SLOT_N + 1);
            assertThat(s.slotsInUse(ACCOUNT)).isEqualTo(1);
        });
    }

    /** Ids start again at 1 after 2^31 of them (the counter stays exact in Lua's doubles), skipping ids still held. */
    @Test
    void leaseIdsStartAgainAfterTheWrapAndSkipIdsStillHeld() {
        SlotRequest ten = new SlotRequest(ACCOUNT, 10, 60 * SEC);
        io.cloudg.resilience.spi.SlotLease first = store.tryAcquireSlot(ten);
        assertThat(first.id()).isEqualTo(1);
        client.getMap(store.keys().bulkhead(ACCOUNT), StringCodec.INSTANCE)
                .fastPut("c", Long.toString(((1L << 31) - 2) * SLOT_N + 1));
        assertThat(store.tryAcquireSlot(ten).id()).isEqualTo((1L << 31) - 1);
        assertThat(store.tryAcquireSlot(ten).id()).as("wrapped; 1 is still held").isEqualTo(2);
        assertThat(store.tryAcquireSlot(ten).id()).isEqualTo(3);
        assertThat(store.slotsInUse(ACCOUNT)).isEqualTo(4);
        assertThat(counter(store)).isEqualTo(3 * SLOT_N + 4);
    }

    /**
     * The cap is exact under concurrency: four stores (four workers, each its own connection) with eight callers
     * each admit with a bulkhead of 10 and never release: exactly 10 get a slot; after 3 releases exactly 3 more.
     */
    @Test
    void theCapHoldsExactlyAcrossWorkersAdmittingAtOnce() throws Exception {
        List<RedisStateStore> workers = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            workers.add(RedisStateStore.builder(client).keyPrefix("lease-cap").build());
        }
        workers.get(0).clear();
        AdmitRequest admit = new AdmitRequest("aws", null, ACCOUNT, null, LEAF,
                new LeafLimit(1_000_000, 1_000_000, 1, true), null, new SlotRequest(ACCOUNT, 10, 600 * SEC), 1);
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(32);
        try {
            // the leaf and the bulkhead exist: everyone takes the common path
            workers.get(0).releaseSlot(workers.get(0).admit(admit).lease());
            List<io.cloudg.resilience.spi.SlotLease> granted = java.util.Collections.synchronizedList(new ArrayList<>());
            Runnable round = () -> {
                List<java.util.concurrent.Future<?>> fs = new ArrayList<>();
                for (int w = 0; w < 32; w++) {
                    RedisStateStore st = workers.get(w % 4);
                    fs.add(pool.submit(() -> {
                        for (int i = 0; i < 25; i++) {
                            Admission a = st.admit(admit);
                            if (a.lease() != null) {
                                granted.add(a.lease());
                            }
                        }
                    }));
                }
                for (java.util.concurrent.Future<?> f : fs) {
                    try {
                        f.get(60, TimeUnit.SECONDS);
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }
            };
            round.run();
            assertThat(granted).hasSize(10);
            assertThat(granted).extracting(io.cloudg.resilience.spi.SlotLease::id).doesNotHaveDuplicates();
            assertThat(workers.get(1).slotsInUse(ACCOUNT)).isEqualTo(10);
            for (int i = 0; i < 3; i++) {
                workers.get(2).releaseSlot(granted.get(i));
            }
            granted.clear();
            round.run();
            assertThat(granted).as("exactly the 3 released").hasSize(3);
            assertThat(workers.get(3).slotsInUse(ACCOUNT)).isEqualTo(10);
        } finally {
            pool.shutdownNow();
            workers.get(0).clear();
            for (RedisStateStore w : workers) {
                w.close();
            }
        }
    }

    @Test
    void redis6HasNoFunctionsSoTheScriptsAreCalledByEvalsha() {
        assertThat(store.runner().functions()).as("embedded Redis 6.2").isFalse();
        assertThat(store.admit(admitReq(LEAF, null)).rejected()).isFalse();
    }
}
