package io.cloudg.resilience.memory;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudg.resilience.GovernedCall;
import io.cloudg.resilience.Governor;
import io.cloudg.resilience.ProviderException;
import io.cloudg.resilience.spi.Scope;
import io.cloudg.resilience.config.RateLimitConfig;
import io.cloudg.resilience.spi.LeafView;
import io.cloudg.resilience.time.ManualTimeSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Learned rates survive the end of an embedded run through the state file, per estate (two estates with the
 * same account ids never share one), and the file never fails a run.
 */
class LearningStateStoreTest {
    static final Scope IMAGE_ATTR = Scope.of("aws", "123456789012", "us-east-1", "ec2", "DescribeImageAttribute");
    static final Scope SUBNETS = Scope.of("aws", "123456789012", "us-east-1", "ec2", "DescribeSubnets");
    static final long T0 = Instant.parse("2026-12-01T10:00:00Z").toEpochMilli();
    static final String ESTATE = "aws:123456789012@aws";
    /** A simulator whose accounts have the same ids as the real organization's. */
    static final String SIM = "aws:123456789012@http://127.0.0.1:4566";

    @TempDir
    Path dir;

    /** A run of {@link #ESTATE}'s AWS, its estate told (as a map does after discovery). */
    Governor governor(ManualTimeSource time, Path file) {
        return governor(time, file, ESTATE);
    }

    Governor governor(ManualTimeSource time, Path file, String estate) {
        LearningStateStore store = new LearningStateStore(new InMemoryStateStore(time), new LearnedRatesFile(file), 24);
        store.useEstate("aws", estate);
        return Governor.builder().config(RateLimitConfig.defaults()).time(time).store(store).random(() -> 0.0).build();
    }

    static void throttleOnce(Governor g, Scope scope) throws InterruptedException {
        try (GovernedCall c = g.open(scope)) {
            c.beforeSend();
            c.onFailure(new ProviderException("RequestLimitExceeded", 503, "Request limit exceeded."));
        }
    }

    static void succeedOnce(Governor g, Scope scope) throws InterruptedException {
        try (GovernedCall c = g.open(scope)) {
            c.beforeSend();
            c.onSuccess();
        }
    }

    static double rate(Governor g, Scope leaf) {
        return g.store().snapshot().leaves().stream().filter(l -> l.leaf().equals(leaf)).mapToDouble(LeafView::rateRps)
                .findFirst().orElseThrow();
    }

    @Test
    void aSecondRunStartsAtTheRateTheFirstLearned() throws Exception {
        Path file = dir.resolve("cache/cloudg/learned-rates.json");
        ManualTimeSource first = new ManualTimeSource(T0);
        Governor g1 = governor(first, file);
        throttleOnce(g1, IMAGE_ATTR);
        succeedOnce(g1, SUBNETS);
        assertThat(rate(g1, IMAGE_ATTR)).isEqualTo(10.0);
        g1.close();
        assertThat(file).exists();
        List<LearnedRate> kept = new LearnedRatesFile(file).readAll();
        assertThat(kept).singleElement().satisfies(r -> {
            assertThat(r.estate()).isEqualTo(ESTATE);
            assertThat(r.leaf()).isEqualTo(IMAGE_ATTR);
            assertThat(r.rateRps()).isEqualTo(10.0);
            assertThat(r.ceilingRps()).isEqualTo(20.0);
            assertThat(r.throttles()).isEqualTo(1);
            assertThat(r.lastThrottleEpochMillis()).isEqualTo(T0);
        });

        ManualTimeSource second = new ManualTimeSource(T0 + Duration.ofHours(2).toMillis());
        Governor g2 = governor(second, file);
        assertThat(((LearningStateStore) g2.store()).restored()).isEqualTo(1);
        assertThat(rate(g2, IMAGE_ATTR)).as("starts where the first run left off").isEqualTo(10.0);
        succeedOnce(g2, IMAGE_ATTR);
        assertThat(rate(g2, IMAGE_ATTR)).as("and recovers a step per quiet interval, like any slowed leaf")
                .isEqualTo(11.0);
        try (GovernedCall c = g2.open(SUBNETS)) {
            assertThat(c.admit()).as("a leaf nobody slowed starts full: no wait").isZero();
        }
    }

    @Test
    void twoEstatesWithTheSameAccountIdsNeverShareALearnedRate() throws Exception {
        Path file = dir.resolve("learned.json");
        Governor real = governor(new ManualTimeSource(T0), file, ESTATE);
        throttleOnce(real, IMAGE_ATTR);
        real.close();

        ManualTimeSource later = new ManualTimeSource(T0 + Duration.ofMinutes(5).toMillis());
        Governor sim = governor(later, file, SIM);
        LearningStateStore simStore = (LearningStateStore) sim.store();
        assertThat(simStore.restored()).as("the simulator's accounts have the real ids, not its rates").isZero();
        assertThat(simStore.uses()).containsExactly(new io.cloudg.resilience.spi.EstateKeyed.EstateUse("aws", SIM, 0));
        succeedOnce(sim, IMAGE_ATTR);
        assertThat(rate(sim, IMAGE_ATTR)).as("starts at its ceiling").isEqualTo(20.0);
        throttleOnce(sim, SUBNETS);
        sim.close();
        assertThat(new LearnedRatesFile(file).readAll()).as("each estate keeps its own")
                .extracting(LearnedRate::estate, LearnedRate::leaf)
                .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple(ESTATE, IMAGE_ATTR),
                        org.assertj.core.groups.Tuple.tuple(SIM, SUBNETS));

        Governor again = governor(new ManualTimeSource(T0 + Duration.ofMinutes(10).toMillis()), file, ESTATE);
        assertThat(((LearningStateStore) again.store()).restored()).isEqualTo(1);
        assertThat(rate(again, IMAGE_ATTR)).as("the real estate still starts where it left off").isEqualTo(10.0);
        again.close();
    }

    @Test
    void aProviderWhoseEstateWasNeverToldNeitherStartsFromNorWritesTheFile() throws Exception {
        Path file = dir.resolve("learned.json");
        Governor first = governor(new ManualTimeSource(T0), file);
        throttleOnce(first, IMAGE_ATTR);
        first.close();
        byte[] before = Files.readAllBytes(file);

        ManualTimeSource later = new ManualTimeSource(T0 + Duration.ofMinutes(5).toMillis());
        LearningStateStore store = new LearningStateStore(new InMemoryStateStore(later), new LearnedRatesFile(file), 24);
        Governor untold = Governor.builder().config(RateLimitConfig.defaults()).time(later).store(store).random(() -> 0.0).build();
        succeedOnce(untold, IMAGE_ATTR);
        assertThat(rate(untold, IMAGE_ATTR)).isEqualTo(20.0);
        throttleOnce(untold, SUBNETS);
        untold.close();
        assertThat(Files.readAllBytes(file)).as("nothing kept for an estate nobody named").isEqualTo(before);
    }

    @Test
    void aVersionOneFileIsReadAsLegacyNeverUsedAndDroppedByTheNextWrite() throws Exception {
        Path file = dir.resolve("learned.json");
        Files.writeString(file, "{\"version\": 1, \"leaves\": [{\"scope\": \"" + IMAGE_ATTR + "\", \"rate_rps\": 5.0, "
                + "\"ceiling_rps\": 20.0, \"throttles\": 4, \"last_throttle_at\": \"" + Instant.ofEpochMilli(T0) + "\"}]}");
        assertThat(new LearnedRatesFile(file).readAll()).singleElement().satisfies(r -> {
            assertThat(r.legacy()).isTrue();
            assertThat(r.estate()).isEqualTo(LearnedRatesFile.LEGACY);
            assertThat(r.rateRps()).isEqualTo(5.0);
        });
        ManualTimeSource later = new ManualTimeSource(T0 + Duration.ofMinutes(5).toMillis());
        Governor g = governor(later, file);
        assertThat(((LearningStateStore) g.store()).restored()).as("no estate is the legacy one").isZero();
        succeedOnce(g, IMAGE_ATTR);
        assertThat(rate(g, IMAGE_ATTR)).isEqualTo(20.0);
        g.close();
        assertThat(Files.readString(file)).contains("\"version\" : 2").doesNotContain(LearnedRatesFile.LEGACY);
        assertThat(new LearnedRatesFile(file).readAll()).isEmpty();
        assertThatThrownByTellingItsName(() -> new LearningStateStore(new InMemoryStateStore(later),
                new LearnedRatesFile(file), 24).useEstate("aws", LearnedRatesFile.LEGACY));
    }

    static void assertThatThrownByTellingItsName(org.assertj.core.api.ThrowableAssert.ThrowingCallable call) {
        org.assertj.core.api.Assertions.assertThatThrownBy(call).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("an estate must be named");
    }

    @Test
    void entriesOlderThanTheTtlAreForgottenAndARecoveredLeafLeavesTheFile() throws Exception {
        Path file = dir.resolve("learned.json");
        ManualTimeSource first = new ManualTimeSource(T0);
        Governor g1 = governor(first, file);
        throttleOnce(g1, IMAGE_ATTR);
        throttleOnce(g1, SUBNETS);
        g1.close();
        assertThat(new LearnedRatesFile(file).readAll()).hasSize(2);

        Path copy = Files.copy(file, dir.resolve("copy.json"));
        ManualTimeSource later = new ManualTimeSource(T0 + Duration.ofHours(25).toMillis());
        Governor g2 = governor(later, copy);
        assertThat(((LearningStateStore) g2.store()).restored()).as("24 h TTL").isZero();
        g2.close();
        assertThat(new LearnedRatesFile(copy).readAll()).as("expired entries are dropped when the file is written")
                .isEmpty();

        ManualTimeSource soon = new ManualTimeSource(T0 + Duration.ofMinutes(10).toMillis());
        Governor g3 = governor(soon, file);
        for (int i = 0; i < 40 && rate(g3, SUBNETS) < 20.0; i++) {
            soon.advance(Duration.ofSeconds(6));
            succeedOnce(g3, SUBNETS);
        }
        assertThat(rate(g3, SUBNETS)).isEqualTo(20.0);
        g3.close();
        assertThat(new LearnedRatesFile(file).readAll()).as("SUBNETS recovered; IMAGE_ATTR, unused, is kept")
                .extracting(LearnedRate::leaf).containsExactly(IMAGE_ATTR);
    }

    @Test
    void anUnreadableFileNeverFailsARunAndIsReplaced() throws Exception {
        Path file = dir.resolve("learned.json");
        Files.writeString(file, "{ this is not json");
        ManualTimeSource time = new ManualTimeSource(T0);
        Governor g = governor(time, file);
        assertThat(((LearningStateStore) g.store()).restored()).isZero();
        throttleOnce(g, IMAGE_ATTR);
        g.close();
        assertThat(new LearnedRatesFile(file).readAll()).extracting(LearnedRate::leaf).containsExactly(IMAGE_ATTR);
        assertThat(dir.toFile().list()).as("no temporary file left behind").containsExactly("learned.json");
    }

    @Test
    void anUnwritableLocationOnlyWarns() throws Exception {
        Path blocker = dir.resolve("not-a-dir");
        Files.writeString(blocker, "x");
        ManualTimeSource time = new ManualTimeSource(T0);
        Governor g = governor(time, blocker.resolve("learned.json"));
        throttleOnce(g, IMAGE_ATTR);
        g.close();
        assertThat(Files.isRegularFile(blocker)).isTrue();
    }

    @Test
    void theDefaultLocationFollowsXdgThenHome() {
        assertThat(LearnedRatesFile.defaultLocation(k -> k.equals("XDG_CACHE_HOME") ? "/x/cache" : "/home/a"))
                .isEqualTo(Path.of("/x/cache/cloudg/learned-rates.json"));
        assertThat(LearnedRatesFile.defaultLocation(k -> k.equals("HOME") ? "/home/a" : null))
                .isEqualTo(Path.of("/home/a/.cache/cloudg/learned-rates.json"));
    }
}
