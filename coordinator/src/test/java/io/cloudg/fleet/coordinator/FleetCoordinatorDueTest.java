package io.cloudg.fleet.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** When the coordinator's periodic work (the lag read, the run's bookkeeping) is due. */
class FleetCoordinatorDueTest {
    @Test
    void neverDoneIsDueAtOnceWhateverTheClockSays() {
        assertThat(FleetCoordinator.due(Long.MIN_VALUE, 1_764_000_000_000L, 5_000)).isTrue();
        assertThat(FleetCoordinator.due(Long.MIN_VALUE, 0, 5_000)).isTrue();
        assertThat(FleetCoordinator.due(Long.MIN_VALUE, -1, 250)).isTrue();
    }

    @Test
    void doneOnceIsDueAgainAfterTheInterval() {
        long t = 1_764_000_000_000L;
        assertThat(FleetCoordinator.due(t, t, 250)).isFalse();
        assertThat(FleetCoordinator.due(t, t + 249, 250)).isFalse();
        assertThat(FleetCoordinator.due(t, t + 250, 250)).isTrue();
    }
}
