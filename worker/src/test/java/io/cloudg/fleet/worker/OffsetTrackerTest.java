package io.cloudg.fleet.worker;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class OffsetTrackerTest {
    final TopicPartition p0 = new TopicPartition("cloudg.tasks", 0);
    final TopicPartition p1 = new TopicPartition("cloudg.tasks", 1);
    final OffsetTracker t = new OffsetTracker();

    @Test
    void nothingIsCommittedPastARunningTask() {
        t.taken(p0, 10);
        t.taken(p0, 11);
        t.taken(p0, 12);
        assertThat(t.toCommit()).isEqualTo(Map.of(p0, new OffsetAndMetadata(10)));
        t.finished(p0, 11);
        t.finished(p0, 12);
        assertThat(t.toCommit()).isEqualTo(Map.of(p0, new OffsetAndMetadata(10)));
        t.finished(p0, 10);
        assertThat(t.toCommit()).isEqualTo(Map.of(p0, new OffsetAndMetadata(13)));
    }

    @Test
    void onlyOffsetsThatMovedAreCommittedAgain() {
        t.taken(p0, 0);
        t.finished(p0, 0);
        t.taken(p1, 5);
        Map<TopicPartition, OffsetAndMetadata> c = t.toCommit();
        assertThat(c).isEqualTo(Map.of(p0, new OffsetAndMetadata(1), p1, new OffsetAndMetadata(5)));
        t.committed(c);
        assertThat(t.toCommit()).isEmpty();
        t.finished(p1, 5);
        assertThat(t.toCommit()).isEqualTo(Map.of(p1, new OffsetAndMetadata(6)));
    }

    @Test
    void aLostPartitionIsForgottenAndItsLateCompletionsMoveNothing() {
        t.taken(p0, 3);
        t.taken(p1, 7);
        t.forget(List.of(p0));
        t.finished(p0, 3);
        assertThat(t.toCommit()).isEqualTo(Map.of(p1, new OffsetAndMetadata(7)));
        assertThat(t.toCommit(List.of(p0))).isEmpty();
        assertThat(t.isRunning(p1, 7)).isTrue();
        assertThat(t.isRunning(p0, 3)).isFalse();
    }
}
