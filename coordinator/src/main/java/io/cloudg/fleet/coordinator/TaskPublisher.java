package io.cloudg.fleet.coordinator;

import io.cloudg.fleet.kafka.Sends;
import io.cloudg.fleet.coordinator.GroupView;
import io.cloudg.fleet.protocol.MessageCodec;
import io.cloudg.fleet.protocol.TaskMessage;
import java.util.concurrent.CompletableFuture;
import io.cloudg.resilience.time.TimeSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.Producer;

/**
 * Puts tasks on the tasks topic. A run's tasks are dealt over the partitions in their publication order
 * (task i on partition i mod n), so every worker's share follows the interleaved order and no partition
 * gets one account's tasks in a row. A retry goes to a partition held by another worker than the one that
 * gave the task up ({@link RetryPlacement}).
 */
final class TaskPublisher {
    private static final Duration VIEW_TTL = Duration.ofSeconds(2);

    private final Producer<String, byte[]> producer;
    private final String topic;
    private final int partitions;
    private final MessageCodec codec;
    private final GroupView group;
    private final TimeSource time;
    private Map<String, List<Integer>> view = Map.of();
    private Long viewAt;
    private int retries;

    TaskPublisher(Producer<String, byte[]> producer, String topic, int partitions, MessageCodec codec, GroupView group,
                  TimeSource time) {
        this.producer = producer;
        this.topic = topic;
        this.partitions = partitions;
        this.codec = codec;
        this.group = group;
        this.time = time;
    }

    /** Publishes tasks in order and waits until Kafka has them all. */
    void publishAll(List<TaskMessage> ordered) {
        List<CompletableFuture<Void>> sent = new ArrayList<>(ordered.size());
        for (int i = 0; i < ordered.size(); i++) {
            sent.add(send(ordered.get(i), i % partitions));
        }
        producer.flush();
        await(sent);
    }

    /** Publishes the next attempt of a task, away from {@code avoidWorker}; returns the partition chosen (or null). */
    Integer retry(TaskMessage next) {
        long now = time.epochMillis();
        if (viewAt == null || now - viewAt > VIEW_TTL.toMillis()) {
            view = group.assignments(Duration.ofSeconds(5));
            viewAt = now;
        }
        Integer partition = RetryPlacement.choose(view, next.avoidWorker(), retries++);
        await(List.of(send(next, partition)));
        return partition;
    }

    int retries() {
        return retries;
    }

    private CompletableFuture<Void> send(TaskMessage m, Integer partition) {
        return Sends.send(producer, Sends.record(topic, partition, m.taskId(), codec.encode(m), m.runId()));
    }

    private static void await(List<CompletableFuture<Void>> sent) {
        Sends.awaitAll(sent, "a task");
    }
}
