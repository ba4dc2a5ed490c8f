package io.cloudg.fleet.worker;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeSet;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Which task offsets a worker may commit. Tasks finish out of order, but a partition's committed offset
 * means "everything before it is done": so the offset to commit is the lowest offset still running, or
 * one past the highest taken when none is. A finished task is one whose results Kafka acknowledged, so
 * whatever is committed has its results stored; whatever is not will be redelivered. Partitions the
 * worker lost are forgotten: their tasks' completions no longer move anything. Not thread-safe (the
 * consumer's thread owns it).
 */
final class OffsetTracker {
    private final Map<TopicPartition, TreeSet<Long>> running = new HashMap<>();
    private final Map<TopicPartition, Long> next = new HashMap<>();
    private final Map<TopicPartition, Long> committed = new HashMap<>();

    /** A record was taken for work (or for the dead-letter topic). */
    void taken(TopicPartition tp, long offset) {
        running.computeIfAbsent(tp, k -> new TreeSet<>()).add(offset);
        next.merge(tp, offset + 1, Math::max);
    }

    /** Its results (or its dead letter) are stored. Unknown partitions and offsets are ignored. */
    void finished(TopicPartition tp, long offset) {
        TreeSet<Long> r = running.get(tp);
        if (r != null) {
            r.remove(offset);
        }
    }

    /** Whether an offset is still running here. */
    boolean isRunning(TopicPartition tp, long offset) {
        TreeSet<Long> r = running.get(tp);
        return r != null && r.contains(offset);
    }

    /** Offsets that moved since the last {@link #committed}: lowest running, else one past the highest taken. */
    Map<TopicPartition, OffsetAndMetadata> toCommit() {
        Map<TopicPartition, OffsetAndMetadata> out = new HashMap<>();
        for (Map.Entry<TopicPartition, Long> e : next.entrySet()) {
            TopicPartition tp = e.getKey();
            TreeSet<Long> r = running.get(tp);
            long offset = r == null || r.isEmpty() ? e.getValue() : r.first();
            Long done = committed.get(tp);
            if (done == null || offset > done) {
                out.put(tp, new OffsetAndMetadata(offset));
            }
        }
        return out;
    }

    /** Notes what Kafka accepted. */
    void committed(Map<TopicPartition, OffsetAndMetadata> offsets) {
        offsets.forEach((tp, om) -> committed.merge(tp, om.offset(), Math::max));
    }

    /** Forgets partitions this worker no longer holds. */
    void forget(Collection<TopicPartition> partitions) {
        for (TopicPartition tp : partitions) {
            running.remove(tp);
            next.remove(tp);
            committed.remove(tp);
        }
    }

    /** Only the partitions in {@code tps}, for a commit on revocation. */
    Map<TopicPartition, OffsetAndMetadata> toCommit(Collection<TopicPartition> tps) {
        Map<TopicPartition, OffsetAndMetadata> all = toCommit();
        all.keySet().retainAll(tps);
        return all;
    }
}
