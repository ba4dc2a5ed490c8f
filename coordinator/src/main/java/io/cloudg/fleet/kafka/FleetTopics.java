package io.cloudg.fleet.kafka;

import io.cloudg.fleet.Topics;
import io.cloudg.run.StartupException;
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
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicExistsException;

/** Creating the fleet's topics and reading where they end. */
public final class FleetTopics {
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

    /** Every partition of {@code topic} with its end offset, through a reader. */
    public static Map<Integer, Long> endOffsets(KafkaConsumer<String, byte[]> reader, String topic, Duration timeout) {
        List<TopicPartition> parts = partitions(reader, topic, timeout);
        Map<Integer, Long> out = new HashMap<>();
        reader.endOffsets(parts, timeout).forEach((tp, off) -> out.put(tp.partition(), off));
        return out;
    }

    public static List<TopicPartition> partitions(KafkaConsumer<String, byte[]> reader, String topic, Duration timeout) {
        List<PartitionInfo> infos = reader.partitionsFor(topic, timeout);
        List<TopicPartition> out = new ArrayList<>();
        if (infos != null) {
            for (PartitionInfo i : infos) {
                out.add(new TopicPartition(topic, i.partition()));
            }
        }
        if (out.isEmpty()) {
            throw new StartupException("topic " + topic + " has no partitions (does it exist?)");
        }
        out.sort((a, b) -> Integer.compare(a.partition(), b.partition()));
        return out;
    }
}
