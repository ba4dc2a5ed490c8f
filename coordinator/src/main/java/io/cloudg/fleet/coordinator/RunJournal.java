package io.cloudg.fleet.coordinator;

import io.cloudg.fleet.kafka.Sends;
import io.cloudg.fleet.kafka.FleetTopics;
import io.cloudg.fleet.protocol.JournalEntry;
import io.cloudg.fleet.protocol.MalformedMessageException;
import io.cloudg.fleet.protocol.MessageCodec;
import io.cloudg.fleet.protocol.PlanChunk;
import io.cloudg.fleet.protocol.PlannedTask;
import io.cloudg.fleet.protocol.RunFinished;
import io.cloudg.fleet.protocol.RunPlanned;
import io.cloudg.fleet.protocol.Wire;
import io.cloudg.resilience.time.TimeSource;
import io.cloudg.config.StartupException;
import java.util.concurrent.CompletableFuture;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.TopicPartition;

/**
 * The run journal on the runs topic: the plan in chunks, sealed by {@link RunPlanned}, written before
 * any task is published; {@link RunFinished} once the map is written. A resumed coordinator reads a run
 * back from it.
 */
final class RunJournal {
    static final int CHUNK = 500;

    /** A run read back: its seal, its tasks in plan order, and whether it already finished. */
    record Found(RunPlanned planned, List<PlannedTask> tasks, boolean finished) {
    }

    private final String topic;
    private final MessageCodec codec;

    RunJournal(String topic, MessageCodec codec) {
        this.topic = topic;
        this.codec = codec;
    }

    static int chunks(int tasks) {
        return (tasks + CHUNK - 1) / CHUNK;
    }

    /** Writes the plan and its seal; returns once Kafka has them. */
    void write(Producer<String, byte[]> producer, RunPlanned planned, List<PlannedTask> tasks) {
        List<CompletableFuture<Void>> sent = new ArrayList<>();
        for (int i = 0; i * CHUNK < tasks.size(); i++) {
            List<PlannedTask> part = tasks.subList(i * CHUNK, Math.min(tasks.size(), (i + 1) * CHUNK));
            sent.add(send(producer, new PlanChunk(Wire.VERSION, planned.runId(), i, part)));
        }
        sent.add(send(producer, planned));
        producer.flush();
        await(sent);
    }

    void finished(Producer<String, byte[]> producer, RunFinished f) {
        await(List.of(send(producer, f)));
    }

    private CompletableFuture<Void> send(Producer<String, byte[]> producer, JournalEntry e) {
        return Sends.send(producer, Sends.record(topic, null, e.runId(), codec.encode(e), e.runId()));
    }

    private static void await(List<CompletableFuture<Void>> sent) {
        Sends.awaitAll(sent, "the run journal");
    }

    /** Reads run {@code runId} back; fails with a {@link StartupException} when it is absent or incomplete. */
    Found read(KafkaConsumer<String, byte[]> reader, String runId, Duration timeout, TimeSource time) {
        return find(reader, runId, timeout, time).orElseThrow(() -> new StartupException("no run " + runId + " in "
                + topic + " (it never finished planning, or the journal's retention dropped it): start a new map"));
    }

    /**
     * Reads run {@code runId} back if its plan was sealed; empty if it never was (never started, or its
     * coordinator stopped while planning). Fails with a {@link StartupException} when the journal is
     * unreadable or a sealed plan is incomplete.
     */
    java.util.Optional<Found> find(KafkaConsumer<String, byte[]> reader, String runId, Duration timeout, TimeSource time) {
        List<TopicPartition> parts = FleetTopics.partitions(reader, topic, timeout, time);
        reader.assign(parts);
        reader.seekToBeginning(parts);
        Map<TopicPartition, Long> end = reader.endOffsets(parts, timeout);
        Map<Integer, PlanChunk> chunks = new TreeMap<>();
        RunPlanned planned = null;
        boolean finished = false;
        long deadline = time.nanoTime() + timeout.toNanos() * 4;
        while (!caughtUp(reader, end)) {
            if (time.nanoTime() > deadline) {
                throw new StartupException("timed out reading the run journal " + topic);
            }
            for (ConsumerRecord<String, byte[]> r : reader.poll(Duration.ofMillis(200))) {
                if (!runId.equals(r.key())) {
                    continue;
                }
                JournalEntry e;
                try {
                    e = codec.journal(r.value());
                } catch (MalformedMessageException x) {
                    throw new StartupException("the journal of run " + runId + " holds an unreadable entry at "
                            + r.topic() + "-" + r.partition() + "@" + r.offset() + ": " + x.reason());
                }
                if (e instanceof PlanChunk c) {
                    chunks.put(c.index(), c);
                } else if (e instanceof RunPlanned p) {
                    planned = p;
                } else if (e instanceof RunFinished) {
                    finished = true;
                }
            }
        }
        reader.unsubscribe();
        if (planned == null) {
            return java.util.Optional.empty();
        }
        List<PlannedTask> tasks = new ArrayList<>();
        for (int i = 0; i < planned.chunkCount(); i++) {
            PlanChunk c = chunks.get(i);
            if (c == null) {
                throw new StartupException("the plan of run " + runId + " lacks chunk " + i + " of " + planned.chunkCount());
            }
            tasks.addAll(c.tasks());
        }
        if (tasks.size() != planned.taskCount()) {
            throw new StartupException("the plan of run " + runId + " holds " + tasks.size() + " tasks, not "
                    + planned.taskCount());
        }
        return java.util.Optional.of(new Found(planned, tasks, finished));
    }

    static boolean caughtUp(KafkaConsumer<String, byte[]> reader, Map<TopicPartition, Long> end) {
        for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
            if (reader.position(e.getKey()) < e.getValue()) {
                return false;
            }
        }
        return true;
    }
}
