package io.cloudg.replan;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudg.CloudGConfig;
import io.cloudg.resilience.Governor;
import io.cloudg.resilience.config.RateLimitConfig;
import io.cloudg.resilience.memory.InMemoryStateStore;
import io.cloudg.resilience.spi.EstateKeyed;
import io.cloudg.resilience.spi.ForwardingStateStore;
import io.cloudg.resilience.time.ManualTimeSource;
import io.cloudg.run.TaskTarget;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What a fleet's worker (before each task) and coordinator (after discovery) do: the estate a task's calls go
 * to, from its target's discovery facts and the process's configuration, is told to the governor's store.
 */
class ReplannersEstateTest {
    /** A store that keeps learned state per estate and remembers what it was told. */
    static final class Recording extends ForwardingStateStore implements EstateKeyed {
        final List<EstateUse> told = new ArrayList<>();

        Recording(ManualTimeSource time) {
            super(new InMemoryStateStore(time));
        }

        @Override
        public int useEstate(String provider, String estate) {
            told.add(new EstateUse(provider, estate, 0));
            return 0;
        }

        @Override
        public List<EstateUse> uses() {
            return List.copyOf(told);
        }

        @Override
        public Map<String, String> location() {
            return Map.of("redis", "test");
        }
    }

    @Test
    void aTasksEstateIsItsManagementAccountAtTheConfiguredEndpoint() {
        ManualTimeSource time = new ManualTimeSource();
        Recording store = new Recording(time);
        CloudGConfig config = CloudGConfig.builder().providers("aws")
                .aws(a -> a.withEndpoint(URI.create("http://127.0.0.1:4566/"))).build();
        try (Governor g = Governor.builder().config(RateLimitConfig.defaults()).time(time).store(store).build();
             Replanners providers = Replanners.lazy(config, g, 4)) {
            providers.useEstate("aws", Map.of());
            assertThat(store.told).as("no management account known: no estate to tell").isEmpty();
            providers.useEstate("aws", Map.of(TaskTarget.MANAGEMENT_ACCOUNT, "111122223333"));
            assertThat(store.told).containsExactly(
                    new EstateKeyed.EstateUse("aws", "aws:111122223333@http://127.0.0.1:4566", 0));
        }
    }
}
