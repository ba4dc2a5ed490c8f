package io.cloudg.fleet.coordinator;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which worker holds which partitions of the tasks topic, as the group coordinator tells it (workers use
 * their worker id as Kafka client id). The coordinator uses it to publish a retry on a partition another
 * worker reads, so that an abandoned task runs elsewhere. Best effort: an empty answer means "anywhere".
 */
public final class GroupView {
    private static final Logger LOG = LoggerFactory.getLogger("cloudg.fleet");

    private final Admin admin;
    private final String group;
    private final String topic;

    public GroupView(Admin admin, String group, String topic) {
        this.admin = admin;
        this.group = group;
        this.topic = topic;
    }

    /**
     * The group's lag on the tasks topic: over its partitions, the end offset minus the group's committed
     * offset (the start of the partition where the group has committed nothing, as workers start from the
     * earliest message). Empty when Kafka could not be asked.
     */
    public OptionalLong lag(Duration timeout) {
        try {
            long ms = timeout.toMillis();
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group)
                    .partitionsToOffsetAndMetadata().get(ms, TimeUnit.MILLISECONDS);
            List<TopicPartition> parts = new ArrayList<>();
            admin.describeTopics(List.of(topic)).allTopicNames().get(ms, TimeUnit.MILLISECONDS).get(topic).partitions()
                    .forEach(p -> parts.add(new TopicPartition(topic, p.partition())));
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            Map<TopicPartition, OffsetSpec> earliest = new HashMap<>();
            parts.forEach(tp -> {
                latest.put(tp, OffsetSpec.latest());
                earliest.put(tp, OffsetSpec.earliest());
            });
            Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> end = admin.listOffsets(latest).all()
                    .get(ms, TimeUnit.MILLISECONDS);
            Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> start = admin.listOffsets(earliest).all()
                    .get(ms, TimeUnit.MILLISECONDS);
            long lag = 0;
            for (TopicPartition tp : parts) {
                OffsetAndMetadata c = committed.get(tp);
                long from = c != null ? c.offset() : start.get(tp).offset();
                lag += Math.max(0, end.get(tp).offset() - from);
            }
            return OptionalLong.of(lag);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            LOG.debug("cannot read the lag of group {}: {}", group, e.toString());
        }
        return OptionalLong.empty();
    }

    /** Worker id to the task partitions it holds (sorted), or empty when the group cannot be described. */
    public Map<String, List<Integer>> assignments(Duration timeout) {
        Map<String, List<Integer>> out = new TreeMap<>();
        try {
            ConsumerGroupDescription d = admin.describeConsumerGroups(List.of(group)).describedGroups().get(group)
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            for (MemberDescription m : d.members()) {
                List<Integer> parts = new ArrayList<>();
                for (TopicPartition tp : m.assignment().topicPartitions()) {
                    if (tp.topic().equals(topic)) {
                        parts.add(tp.partition());
                    }
                }
                parts.sort(Integer::compare);
                out.merge(m.clientId(), parts, (a, b) -> {
                    List<Integer> all = new ArrayList<>(a);
                    all.addAll(b);
                    return all;
                });
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            LOG.debug("cannot describe group {}: {}", group, e.toString());
        }
        return out;
    }
}
