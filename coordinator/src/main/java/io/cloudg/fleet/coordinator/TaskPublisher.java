package io.cloudg.fleet.coordinator;

import io.cloudg.fleet.kafka.GroupView;
import io.cloudg.fleet.protocol.MessageCodec;
import io.cloudg.fleet.protocol.TaskMessage;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

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
    private final Clock clock;
    private Map<String, List<Integer>> view = Map.of();
    private Long viewAt;
    private int retries;

    TaskPublisher(Producer<String, byte[]> producer, String topic, int partitions, MessageCodec codec, GroupView group,
                  Clock clock) {
        this.producer = producer;
        this.topic = topic;
        this.partitions = partitions;
        this.codec = codec;
        this.group = group;
        this.clock = clock;
    }

    /** Publishes tasks in order and waits until Kafka has them all. */
    void publishAll(List<TaskMessage> ordered) {
        List<Future<RecordMetadata>> sent = new ArrayList<>(ordered.size());
        for (int i = 0; i < ordered.size(); i++) {
            sent.add(send(ordered.get(i), i % partitions));
        }
        producer.flush();
        await(sent);
    }

    /** Publishes the next attempt of a task, away from {@code avoidWorker}; returns the partition chosen (or null). */
    Integer retry(TaskMessage next) {
        long now = clock.millis();
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

    private Future<RecordMetadata> send(TaskMessage m, Integer partition) {
        ProducerRecord<String, byte[]> r = new ProducerRecord<>(topic, partition, m.taskId(), codec.encode(m));
        r.headers().add(MessageCodec.RUN_HEADER, m.runId().getBytes(StandardCharsets.UTF_8));
        return producer.send(r);
    }

    private static void await(List<Future<RecordMetadata>> sent) {
        for (Future<RecordMetadata> f : sent) {
            try {
                f.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while publishing tasks", e);
            } catch (ExecutionException e) {
                throw new IllegalStateException("Kafka did not take a task: " + e.getCause(), e.getCause());
            }
        }
    }
}
