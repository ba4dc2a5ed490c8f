package io.cloudg.fleet.coordinator;

import io.cloudg.fleet.kafka.Sends;
import io.cloudg.fleet.plan.TaskPlacement;
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
 * Puts tasks on the tasks topic. A run's tasks come heaviest first; each goes to the partition
 * {@link TaskPlacement} chooses from the workers' current partitions (the group's view): the worker of the
 * task's account while it stays within its fair share of the expected calls, else the least-loaded worker,
 * then that worker's least-loaded partition, so the heavy tasks are spread over the workers, an account's
 * role is assumed by about one worker, and each worker's partitions start with its heaviest (which it takes
 * first). A retry goes to a partition held by another worker than the one that gave the task up
 * ({@link RetryPlacement}).
 */
final class TaskPublisher {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger("cloudg.fleet.coordinator");
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

    /** Publishes tasks in order (heaviest first), placed over the workers, and waits until Kafka has them all. */
    void publishAll(List<TaskMessage> ordered) {
        long[] costs = new long[ordered.size()];
        String[] accounts = new String[ordered.size()];
        for (int i = 0; i < costs.length; i++) {
            costs[i] = ordered.get(i).cost();
            accounts[i] = TaskPlacement.affinity(ordered.get(i).target());
        }
        Map<String, List<Integer>> workers = ordered.isEmpty() ? Map.of() : group.assignments(Duration.ofSeconds(5));
        int[] placed = TaskPlacement.place(costs, accounts, partitions, workers);
        List<CompletableFuture<Void>> sent = new ArrayList<>(ordered.size());
        for (int i = 0; i < ordered.size(); i++) {
            sent.add(send(ordered.get(i), placed[i]));
        }
        producer.flush();
        await(sent);
        LOG.debug("published {} task(s) over {} worker(s) of the group", ordered.size(), workers.size());
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
