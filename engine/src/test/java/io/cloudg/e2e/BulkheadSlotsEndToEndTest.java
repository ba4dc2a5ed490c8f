package io.cloudg.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.cloudg.map.InventoryMapper;
import io.cloudg.InventoryResult;
import io.cloudg.resilience.Governor;
import io.cloudg.resilience.spi.Scope;
import io.cloudg.resilience.config.RateLimitConfig;
import io.cloudg.resilience.memory.InMemoryStateStore;
import io.cloudg.resilience.spi.Admission;
import io.cloudg.resilience.spi.AdmitRequest;
import io.cloudg.resilience.spi.OutcomeRequest;
import io.cloudg.resilience.spi.OutcomeResult;
import io.cloudg.resilience.spi.SlotLease;
import io.cloudg.resilience.spi.SlotRequest;
import io.cloudg.resilience.spi.StateStore;
import io.cloudg.resilience.spi.StoreSnapshot;
import io.cloudg.resilience.time.TimeSource;
import io.cloudg.sim.config.EstateSpec;
import io.cloudg.sim.config.FaultSpec;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * The bulkhead counts calls in flight, each SDK its way: an AWS API call holds one slot for all its attempts
 * (the SDK's retries reuse it), an Azure HTTP attempt holds one of its own. Counted at the store the
 * governor uses, against cloud-sim throttling a known number of attempts. A map that was throttled also says
 * so in the log, one {@code Throttling: <line>} WARNING per scope that pushed back.
 */
class BulkheadSlotsEndToEndTest {
    @TempDir
    Path out;

    /** The in-memory store, counting slot acquisitions (granted ones) and admissions that took a slot with them. */
    static final class CountingStore extends io.cloudg.resilience.spi.ForwardingStateStore {
        final AtomicInteger slots = new AtomicInteger();

        CountingStore() {
            super(new InMemoryStateStore(TimeSource.system()));
        }

        @Override
        public Admission admit(AdmitRequest request) {
            Admission a = super.admit(request);
            if (a.lease() != null) {
                slots.incrementAndGet();
            }
            return a;
        }

        @Override
        public SlotLease tryAcquireSlot(SlotRequest request) {
            SlotLease l = super.tryAcquireSlot(request);
            if (l != null) {
                slots.incrementAndGet();
            }
            return l;
        }

        @Override
        public String describe() {
            return "counting memory";
        }
    }

    @Test
    void anAwsCallKeepsOneSlotThroughItsRetriesAndTheThrottlingIsLogged() throws Exception {
        FaultSpec faults = FaultSpec.fromYaml("faults: [{match: {provider: aws, service: ec2, operation: DescribeVpcs}, "
                + "error: throttle, count: 2}]");
        ListAppender<ILoggingEvent> log = new ListAppender<>();
        Logger throttling = (Logger) LoggerFactory.getLogger("cloudg.throttling");
        log.start();
        throttling.addAppender(log);
        try (SimHarness h = new SimHarness(EstateSpec.defaultEstate(), faults)) {
            CountingStore store = new CountingStore();
            RateLimitConfig rl = RateLimitConfig.builder().aws(a -> a.maxBackoffSeconds(0.02)).build();
            Governor g = Governor.builder().config(rl).store(store).build();
            String management = h.sim.managementCredentials().accountId();
            InventoryResult r = new InventoryMapper(h.config(out).aws(a -> a.withOrg(false).withRegions(List.of("us-east-1"))
                    .withCollectors(List.of("vpc"), List.of()).withSweeps(false, false)).build(), g).mapInventory();
            assertThat(r.complete()).as("two throttles, then the SDK's third attempt answers").isTrue();
            assertThat(h.sim.stats().totals().throttled()).isEqualTo(2);
            long ec2Calls = 1; // one DescribeVpcs call (three attempts)
            long stsCalls = 1; // GetCallerIdentity
            long regionCalls = 1; // DescribeRegions: the account's enabled regions
            assertThat(store.slots.get()).as("one slot per API call, whatever its attempts (account %s)", management)
                    .isEqualTo((int) (ec2Calls + stsCalls + regionCalls));
        } finally {
            throttling.detachAppender(log);
        }
        assertThat(log.list).anySatisfy(e -> {
            assertThat(e.getLevel().toString()).isEqualTo("WARN");
            assertThat(e.getFormattedMessage()).startsWith("Throttling: aws/").contains("/us-east-1/ec2: throttled 2x");
        });
    }

    @Test
    void anAzureHttpAttemptTakesASlotOfItsOwn() throws Exception {
        try (SimHarness h = new SimHarness(EstateSpec.defaultEstate(), null)) {
            String subscription = h.sim.estate().azure().subscriptions().get(0).id();
            CountingStore quiet = new CountingStore();
            RateLimitConfig rl = RateLimitConfig.builder().azure(a -> a.maxBackoffSeconds(0.05).service("storage", 20, 40)).build();
            new InventoryMapper(h.azureConfig(out.resolve("quiet")).azure(a -> a.withSubscriptions(List.of(subscription))).build(),
                    Governor.builder().config(rl).store(quiet).build()).mapInventory();
            h.sim.setFaults(FaultSpec.fromYaml("faults: [{match: {provider: azure, account: " + subscription
                    + ", operation: ListResources}, error: throttle, count: 3}]"));
            CountingStore throttled = new CountingStore();
            InventoryResult r = new InventoryMapper(h.azureConfig(out.resolve("throttled"))
                    .azure(a -> a.withSubscriptions(List.of(subscription))).build(),
                    Governor.builder().config(rl).store(throttled).build()).mapInventory();
            assertThat(r.complete()).isTrue();
            assertThat(throttled.slots.get() - quiet.slots.get()).as("each of the 3 throttled attempts held its own slot")
                    .isEqualTo(3);
        }
    }
}
