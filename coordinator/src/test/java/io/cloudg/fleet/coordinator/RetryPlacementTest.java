package io.cloudg.fleet.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RetryPlacementTest {
    final Map<String, List<Integer>> group = Map.of("w1", List.of(0, 3), "w2", List.of(1, 4), "w3", List.of(2, 5));

    @Test
    void neverOnAPartitionOfTheWorkerToAvoid() {
        for (int i = 0; i < 20; i++) {
            assertThat(RetryPlacement.choose(group, "w2", i)).isNotIn(1, 4).isIn(0, 2, 3, 5);
        }
    }

    @Test
    void spreadRoundRobinOverTheOthers() {
        assertThat(List.of(RetryPlacement.choose(group, "w1", 0), RetryPlacement.choose(group, "w1", 1),
                RetryPlacement.choose(group, "w1", 2), RetryPlacement.choose(group, "w1", 3))).containsExactly(1, 2, 4, 5);
    }

    @Test
    void anywhereWhenNoOtherWorkerHoldsAPartition() {
        assertThat(RetryPlacement.choose(Map.of("w1", List.of(0, 1)), "w1", 0)).isNull();
        assertThat(RetryPlacement.choose(Map.of(), "w1", 0)).isNull();
        assertThat(RetryPlacement.choose(Map.of("w1", List.of(0, 1)), null, 1)).isEqualTo(1);
    }
}
