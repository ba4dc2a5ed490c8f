package io.cloudg.fleet.kafka;

import io.cloudg.fleet.Topics;
import io.cloudg.resilience.time.TimeSource;
import io.cloudg.config.StartupException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.TopicExistsException;

/** Creating the fleet's topics and reading where they end. */
public final class FleetTopics {
    private static final long PAUSE_NANOS = 200_000_000L;
    private FleetTopics() {
    }

    /**
     * Creates whichever of the four topics is missing (an existing topic is left as it is). Fails with a
     * {@link StartupException} naming the servers when Kafka cannot be reached in {@code timeout}.
     */
    public static void ensure(Admin admin, Topics topics, String servers, Duration timeout) {
        Optional<Short> rf = topics.replicationFactor() == 0 ? Optional.empty() : Optional.of((short) topics.replicationFactor());
        List<NewTopic> wanted = List.of(
                new NewTopic(topics.tasks(), Optional.of(topics.taskPartitions()), rf),
                new NewTopic(topics.results(), Optional.of(topics.resultPartitions()), rf),
                new NewTopic(topics.deadLetters(), Optional.of(1), rf),
                new NewTopic(topics.runs(), Optional.of(1), rf));
        try {
            Set<String> existing = admin.listTopics().names().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            List<NewTopic> missing = new ArrayList<>();
            for (NewTopic t : wanted) {
                if (!existing.contains(t.name())) {
                    missing.add(t);
                }
            }
            if (missing.isEmpty()) {
                return;
            }
            for (Map.Entry<String, org.apache.kafka.common.KafkaFuture<Void>> e : admin.createTopics(missing).values().entrySet()) {
                try {
                    e.getValue().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
                } catch (ExecutionException x) {
                    if (!(x.getCause() instanceof TopicExistsException)) {
                        throw x;
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StartupException("interrupted while creating the fleet's topics", e);
        } catch (ExecutionException | TimeoutException e) {
            Throwable c = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
            throw new StartupException("cannot reach Kafka at " + servers + " to create the fleet's topics ("
                    + c.getClass().getSimpleName() + (c.getMessage() == null ? "" : ": " + c.getMessage()) + ")", c);
        }
    }

    /** Waits until every topic named exists, for processes that must not create them. */
    public static void await(Admin admin, List<String> names, String servers, Duration timeout) {
        try {
            Map<String, TopicDescription> d = admin.describeTopics(names).allTopicNames().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (d.size() != names.size()) {
                throw new StartupException("Kafka at " + servers + " lacks some of the topics " + names);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StartupException("interrupted while looking for the fleet's topics", e);
        } catch (ExecutionException | TimeoutException e) {
            Throwable c = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
            throw new StartupException("the fleet's topics " + names + " are not on Kafka at " + servers
                    + " (" + c.getClass().getSimpleName() + (c.getMessage() == null ? "" : ": " + c.getMessage())
                    + "); set fleet.kafka.create_topics or create them", c);
        }
    }

    /**
     * Every partition of {@code topic} with its end offset (where the next message will go). A topic created
     * a moment ago may not have leaders yet: retriable errors are retried until {@code timeout}.
     */
    public static Map<Integer, Long> endOffsets(Admin admin, String topic, Duration timeout, TimeSource time) {
        long deadline = time.nanoTime() + timeout.toNanos();
        while (true) {
            try {
                TopicDescription d = admin.describeTopics(List.of(topic)).allTopicNames()
                        .get(timeout.toMillis(), TimeUnit.MILLISECONDS).get(topic);
                Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
                d.partitions().forEach(p -> latest.put(new TopicPartition(topic, p.partition()), OffsetSpec.latest()));
                Map<Integer, Long> out = new HashMap<>();
                admin.listOffsets(latest).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS)
                        .forEach((tp, info) -> out.put(tp.partition(), info.offset()));
                return out;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new StartupException("interrupted while reading where " + topic + " ends", e);
            } catch (ExecutionException | TimeoutException e) {
                Throwable c = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
                if (!(c instanceof RetriableException) || time.nanoTime() > deadline) {
                    throw new StartupException("cannot read where " + topic + " ends: " + c, c);
                }
                pause(time);
            }
        }
    }

    private static void pause(TimeSource time) {
        try {
            time.sleep(PAUSE_NANOS);
        } catch (InterruptedException x) {
            Thread.currentThread().interrupt();
            throw new StartupException("interrupted while waiting for Kafka", x);
        }
    }

    /** The partitions of {@code topic}, waiting up to {@code timeout} for a topic created a moment ago. */
    public static List<TopicPartition> partitions(KafkaConsumer<String, byte[]> reader, String topic, Duration timeout,
                                                  TimeSource time) {
        long deadline = time.nanoTime() + timeout.toNanos();
        List<TopicPartition> out = new ArrayList<>();
        while (out.isEmpty()) {
            List<PartitionInfo> infos = reader.partitionsFor(topic, timeout);
            if (infos != null) {
                for (PartitionInfo i : infos) {
                    out.add(new TopicPartition(topic, i.partition()));
                }
            }
            if (out.isEmpty()) {
                if (time.nanoTime() > deadline) {
                    throw new StartupException("topic " + topic + " has no partitions (does it exist?)");
                }
                pause(time);
            }
        }
        out.sort((a, b) -> Integer.compare(a.partition(), b.partition()));
        return out;
    }
}
