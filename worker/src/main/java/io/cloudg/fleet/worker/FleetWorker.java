package io.cloudg.fleet.worker;

import io.cloudg.preload.ClassPreload;
import io.cloudg.collect.CollectionTask;
import io.cloudg.collect.Coverage;
import io.cloudg.fleet.FleetSettings;
import io.cloudg.fleet.WorkerSettings;
import io.cloudg.fleet.kafka.DeadLetters;
import io.cloudg.fleet.kafka.FleetTopics;
import io.cloudg.fleet.kafka.KafkaClients;
import io.cloudg.fleet.kafka.KafkaMetrics;
import io.cloudg.fleet.kafka.ResultEmitter;
import io.cloudg.replan.Replanners;
import io.cloudg.fleet.protocol.MalformedMessageException;
import io.cloudg.fleet.protocol.MessageCodec;
import io.cloudg.fleet.protocol.TaskMessage;
import io.cloudg.metrics.CloudgMetrics;
import io.cloudg.metrics.FleetMetrics;
import io.cloudg.metrics.MapMetrics;
import io.cloudg.resilience.time.TimeSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A fleet worker: a member of the workers' consumer group that takes tasks, runs them with its own
 * clients and credentials through the shared governor, and reports results.
 *
 * <ul>
 *   <li>As many tasks at once as the governor and the CPU have room for: its jobs run on virtual threads (a job
 *       waiting on the network or the governor holds no platform thread), and another task is taken whenever
 *       the process's calls are below {@code ratelimit.max_calls_in_flight} with none waiting for a place, up to
 *       as many tasks as job places, and either ({@code fleet.worker.threads} set) no job waits for one of its
 *       places while one is free, or (unset, the default: as many places as that ceiling) fewer jobs wait than
 *       the {@link JobWindow}, the jobs the CPU lets run at once; or at most {@code fleet.worker.max_in_flight}
 *       tasks when that is set. The consumer is paused while full.</li>
 *   <li>The costliest first: the next record of each of its partitions waits as that partition's head
 *       (the partition paused meanwhile), and a free slot takes the head whose task expects the most calls
 *       ({@link TaskMessage#cost}), so a worker given two AMI fan-outs on different partitions starts both
 *       before its small tasks. Within a partition the order stays the topic's, as commits need. With the job
 *       window, jobs waiting for a place start by their own expected calls, then their task's ({@link JobPool}):
 *       a fan-out before the small listings taken before it.</li>
 *   <li>A task's offset is committed only once Kafka has acknowledged all of its results (or its dead
 *       letter, or its abandonment): a crash means redelivery, never loss.</li>
 *   <li>A message that cannot be used goes to the dead-letter topic with the reason; the worker goes on.</li>
 *   <li>An execution past the task's timeout is abandoned (the coordinator publishes the next attempt
 *       on another worker's partition).</li>
 *   <li>{@link #stop} (SIGTERM) takes no more tasks, lets in-flight ones finish within the grace period,
 *       and hands the rest back: left uncommitted, Kafka redelivers them to the others as this member
 *       leaves the group.</li>
 *   <li>A result that cannot be delivered within {@code fleet.kafka.delivery_timeout_ms} stops the worker
 *       ({@link #failure()}), uncommitted: its supervisor restarts it and the tasks are redelivered.</li>
 * </ul>
 */
public final class FleetWorker implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger("cloudg.fleet.worker");
    /**
     * The longest the loop waits in one round: for a record while it has room for a task, for a wake-up
     * ({@link #wake}) while it has none. Rebalances, commits and timeouts are seen at most this late.
     */
    static final Duration POLL = Duration.ofMillis(100);

    private final FleetSettings settings;
    private final KafkaClients kafka;
    private final Replanners providers;
    /** The jobs' expected calls, by the configuration's call shapes: the job window starts the costliest first. */
    private final io.cloudg.run.CallEstimates estimates;
    private final Coverage coverage;
    private final TimeSource time;
    private final String workerId;
    private final MessageCodec codec = new MessageCodec();
    private final OffsetTracker offsets = new OffsetTracker();
    private final List<TaskExecution> inFlight = new ArrayList<>();
    private final List<PendingLetter> letters = new ArrayList<>();
    private final WorkerHealth health;
    private final CloudgMetrics metrics;
    private final FleetMetrics.Worker meters;
    private final MapMetrics mapMetrics;
    private final CountDownLatch finished = new CountDownLatch(1);
    private final AtomicLong done = new AtomicLong();
    /**
     * Wake-ups of the consumer loop while it waits for room: a job ended, an execution completed, a dead
     * letter was stored, a stop was asked. (A permit per event; the loop drains them each round.)
     */
    private final Semaphore wakeups = new Semaphore(0);
    private final AtomicLong rounds = new AtomicLong();
    private final AtomicLong kafkaWaits = new AtomicLong();
    /** Whether the round under way may be held back by the cap on tasks (not for want of a free thread). */
    private volatile boolean capped;
    private volatile boolean stopRequested;
    private volatile Duration grace;
    private volatile Throwable failure;
    private KafkaConsumer<String, byte[]> consumer;

    private record PendingLetter(TopicPartition tp, long offset, CompletableFuture<Void> stored) {
    }

    /** A partition's next record, read but not taken: decoded once, or the reason it cannot be. */
    private record Head(ConsumerRecord<String, byte[]> record, TaskMessage message, MalformedMessageException error) {
        /** Unreadable ones go first (to the dead-letter topic at once), then the costliest. */
        long rank() {
            return message == null ? Long.MAX_VALUE : message.cost();
        }
    }

    /** Heads per partition, in the order they were read. */
    private final Map<TopicPartition, Head> heads = new LinkedHashMap<>();

    public FleetWorker(FleetSettings settings, KafkaClients kafka, Replanners providers, TimeSource time) {
        this(settings, kafka, providers, time, CloudgMetrics.none());
    }

    /** A worker whose tasks, Kafka clients and collected assets are counted in {@code metrics}. */
    public FleetWorker(FleetSettings settings, KafkaClients kafka, Replanners providers, TimeSource time,
                       CloudgMetrics metrics) {
        this.settings = settings;
        this.kafka = kafka;
        this.providers = providers;
        this.estimates = providers.callEstimates();
        this.coverage = Coverage.of(providers.governor());
        this.time = time;
        this.workerId = settings.worker().id() != null ? settings.worker().id() : defaultId();
        this.grace = settings.worker().shutdownGrace();
        this.health = new WorkerHealth(time, Duration.ofSeconds(60));
        this.metrics = metrics;
        this.meters = FleetMetrics.of(metrics).worker(health::inFlight);
        this.mapMetrics = MapMetrics.of(metrics);
    }

    /** The host name (a pod's name) and the process id. */
    public static String defaultId() {
        String host = System.getenv("HOSTNAME");
        if (host == null || host.isBlank()) {
            try {
                host = java.net.InetAddress.getLocalHost().getHostName();
            } catch (java.net.UnknownHostException e) {
                host = "worker";
            }
        }
        return (host + "-" + ProcessHandle.current().pid()).replaceAll("[^A-Za-z0-9._:-]", "-");
    }

    public String id() {
        return workerId;
    }

    public WorkerHealth health() {
        return health;
    }

    /** Tasks this worker finished (results acknowledged). */
    public long tasksDone() {
        return done.get();
    }

    /** Why the worker stopped on its own (results it could not deliver), or null. */
    public Throwable failure() {
        return failure;
    }

    /** Rounds of the consumer loop so far (each reads Kafka once or more). */
    public long rounds() {
        return rounds.get();
    }

    /**
     * Rounds that waited on Kafka for a record (the others, made while every collector thread had work,
     * waited for a wake-up instead and only looked at Kafka).
     */
    public long kafkaWaits() {
        return kafkaWaits.get();
    }

    private void wake() {
        wakeups.release();
    }

    /**
     * Runs until {@link #stop}; the calling thread becomes the consumer's. Its jobs run on virtual threads, so it
     * first waits for {@link ClassPreload} (the classes a map loads, loaded on platform threads; issue 37).
     */
    public void run() {
        try {
            ClassPreload.global().awaitLoaded();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            finished.countDown();
            return;
        }
        JobPool jobs = jobPool();
        KafkaProducer<String, byte[]> producer = kafka.producer(workerId + "-results");
        List<CloudgMetrics.Binding> kafkaMetrics = new ArrayList<>(List.of(KafkaMetrics.bind(metrics, producer)));
        DeadLetters deadLetters = new DeadLetters(producer, settings.topics().deadLetters(), codec, workerId, time);
        try {
            if (settings.kafka().createTopics()) {
                try (Admin admin = kafka.admin(workerId + "-admin")) {
                    FleetTopics.ensure(admin, settings.topics(), settings.kafka().bootstrapServers(), Duration.ofSeconds(60));
                }
            }
            consumer = kafka.groupConsumer(settings.group(), workerId);
            kafkaMetrics.add(KafkaMetrics.bind(metrics, consumer));
            consumer.subscribe(List.of(settings.topics().tasks()), new Rebalance());
            LOG.info("worker {} joined group {} on {} ({}, {}, {} calls in flight at most)", workerId,
                    settings.group(), settings.topics().tasks(), settings.worker().maxInFlight() == WorkerSettings.AUTO
                            ? "tasks while the governor has room" : "up to " + settings.worker().maxInFlight() + " tasks",
                    jobs.windowed() ? "jobs at once as the CPU allows, " + jobs.window() + " at first, up to "
                            + jobs.places() + " (fleet.worker.threads unset)" : jobs.places() + " jobs at once",
                    providers.governor().config().maxCallsInFlight());
            while (!stopRequested) {
                step(producer, deadLetters, jobs, true);
            }
            drain(producer, deadLetters, jobs);
        } catch (WakeupException e) {
            drain(producer, deadLetters, jobs);
        } finally {
            kafkaMetrics.forEach(CloudgMetrics.Binding::close);
            try {
                if (consumer != null) {
                    consumer.close(CloseOptions.timeout(Duration.ofSeconds(5)));
                }
            } catch (RuntimeException e) {
                LOG.debug("closing the consumer failed", e);
            }
            producer.close(Duration.ofSeconds(10));
            jobs.shutdownNow();
            health.stopping();
            // logged before the latch opens: a shutdown hook waiting on it lets the JVM end at once
            LOG.info("worker {} stopped after {} task(s)", workerId, done.get());
            finished.countDown();
        }
    }

    /**
     * The job pool: {@code fleet.worker.threads} places when set; else as many as {@code ratelimit.max_calls_in_flight},
     * of which a {@link JobWindow} that follows the CPU runs at once.
     */
    private JobPool jobPool() {
        int places = settings.worker().jobs(providers.governor().config().maxCallsInFlight());
        if (settings.worker().threads() != WorkerSettings.AUTO) {
            return new JobPool(places, this::wake);
        }
        return new JobPool(places, this::wake, JobWindow.Config.defaults(Runtime.getRuntime().availableProcessors(),
                places), time);
    }

    /**
     * Asks the worker to stop and waits for it: in-flight tasks get {@code grace} to finish, the rest are
     * handed back. Safe to call from a shutdown hook.
     */
    public void stop(Duration graceOverride) {
        if (graceOverride != null) {
            this.grace = graceOverride;
        }
        stopRequested = true;
        health.stopping();
        wake();
        try {
            finished.await(grace.toMillis() + 20_000, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        stop(null);
    }

    /**
     * Whether another task may start now: never while the process's calls fill {@code ratelimit.max_calls_in_flight};
     * below {@code max_in_flight} when it is set; otherwise up to as many tasks as places, while no job waits for a
     * place and one is free ({@code fleet.worker.threads} set), or while fewer jobs wait than the job window.
     */
    private boolean admits(JobPool jobs) {
        return JobPool.admits(settings.worker().maxInFlight(), jobs.places(), jobs.windowed(), jobs.window(),
                inFlight.size(), jobs.pending(), jobs.waiting(), providers.governor().hasRoomForCalls());
    }

    /**
     * One round. With room for a task and no partition's head read, it waits on Kafka for a record (up to
     * {@link #POLL}); with heads read it takes them at once. Without room (every thread busy, or stopping), a
     * record could not be taken, so it waits for a wake-up instead (up to {@link #POLL}; then it only lets
     * the consumer do its work, rebalances, without waiting): a job that ends leaving a thread idle, an
     * execution that ends while the cap on tasks is what holds the worker back, a dead letter stored, a stop.
     * Other endings wake nothing: their offsets are committed by the next round. (It used to poll Kafka every
     * 10 ms while tasks ran: a hundred rounds a second on each worker, most of them for nothing.)
     */
    private void step(KafkaProducer<String, byte[]> producer, DeadLetters deadLetters, JobPool jobs, boolean take) {
        rounds.incrementAndGet();
        // set before the permits are drained: an execution that ends from here on wakes this round's wait
        capped = take && JobPool.capped(settings.worker().maxInFlight(), jobs.places(), inFlight.size());
        wakeups.drainPermits();
        reap(); // what ended until now counts for this round's room
        boolean room = take && admits(jobs);
        Set<TopicPartition> assigned = consumer.assignment();
        heads.keySet().retainAll(assigned);
        if (room) {
            List<TopicPartition> fetch = new ArrayList<>();
            for (TopicPartition tp : assigned) {
                if (!heads.containsKey(tp)) {
                    fetch.add(tp);
                }
            }
            consumer.pause(heads.keySet());
            consumer.resume(fetch);
        } else {
            consumer.pause(assigned);
        }
        // with heads to take, it takes them now; only with room and nothing to take does it wait for a record
        Duration wait = room && heads.isEmpty() ? POLL : Duration.ZERO;
        if (wait != Duration.ZERO) {
            kafkaWaits.incrementAndGet();
        } else if (!room) {
            try {
                wakeups.tryAcquire(POLL.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt(); // the consumer's next call ends the loop, as it always did
            }
        }
        // one record per poll: read the head of every partition that has none before choosing
        for (int i = 0; i <= assigned.size(); i++) {
            ConsumerRecords<String, byte[]> polled = consumer.poll(i == 0 ? wait : Duration.ZERO);
            if (polled.isEmpty()) {
                break;
            }
            for (ConsumerRecord<String, byte[]> r : polled) {
                TopicPartition tp = new TopicPartition(r.topic(), r.partition());
                consumer.pause(List.of(tp));
                if (heads.containsKey(tp)) {
                    consumer.seek(tp, r.offset()); // a second record of a partition: read it again after its head
                    continue;
                }
                heads.put(tp, head(r));
            }
        }
        while (take && !heads.isEmpty() && admits(jobs)) {
            TopicPartition best = null;
            for (Map.Entry<TopicPartition, Head> e : heads.entrySet()) {
                if (best == null || e.getValue().rank() > heads.get(best).rank()) {
                    best = e.getKey();
                }
            }
            accept(heads.remove(best), best, producer, deadLetters, jobs);
        }
        reap();
        long now = time.epochMillis();
        for (TaskExecution e : inFlight) {
            if (e.expired(now)) {
                try (var context = e.logContext()) {
                    LOG.warn("task {} (attempt {}) ran past its timeout of {}s on {}: abandoned", e.message().taskId(),
                            e.message().attempt(), e.message().timeoutMs() / 1000, workerId);
                }
                e.abandon("timeout: ran past " + e.message().timeoutMs() / 1000.0 + "s on worker " + workerId, false);
            }
        }
        commit();
        health.loop(inFlight.size(), done.get());
    }

    private Head head(ConsumerRecord<String, byte[]> r) {
        try {
            return new Head(r, codec.task(r.value()), null);
        } catch (MalformedMessageException e) {
            return new Head(r, null, e);
        }
    }

    private void accept(Head h, TopicPartition tp, KafkaProducer<String, byte[]> producer, DeadLetters deadLetters,
                        JobPool jobs) {
        ConsumerRecord<String, byte[]> r = h.record();
        offsets.taken(tp, r.offset());
        TaskMessage message = h.message();
        CollectionTask task;
        if (message == null) {
            letters.add(letter(tp, r.offset(), deadLetters.send(r, h.error().reason())));
            meters.deadLettered();
            return;
        }
        try {
            // the task's calls go to its estate: the governor's learned state is that estate's
            providers.useEstate(message.target().provider(), message.target().discovery());
            task = providers.get(message.target().provider()).taskFor(message.target().toTarget());
        } catch (IllegalArgumentException | IllegalStateException e) {
            letters.add(letter(tp, r.offset(), deadLetters.send(r, "cannot run task " + message.taskId()
                    + " on this worker: " + e.getMessage())));
            meters.deadLettered();
            return;
        }
        String executionId = workerId + ":" + UUID.randomUUID();
        ResultEmitter emitter = new ResultEmitter(producer, settings.topics().results(), codec, message, executionId,
                workerId, settings.worker().chunkAssets(), settings.worker().chunkBytes());
        TaskExecution e = new TaskExecution(message, task, tp, r.offset(), executionId, emitter, coverage, time,
                mapMetrics);
        inFlight.add(e);
        try (var context = e.logContext()) {
            LOG.debug("task {} attempt {} (cost {}) from {}@{}: execution {}", message.taskId(), message.attempt(),
                    message.cost(), tp, r.offset(), executionId);
        }
        e.completion().whenComplete((o, x) -> {
            if (capped || stopRequested) {
                wake(); // below the cap on tasks again, or stopping (else the next round commits its offset)
            }
        });
        e.start(jobs, estimates);
        meters.started();
    }

    private PendingLetter letter(TopicPartition tp, long offset, CompletableFuture<Void> stored) {
        stored.whenComplete((v, x) -> wake());
        return new PendingLetter(tp, offset, stored);
    }

    /** Completed executions and stored dead letters free their offsets; an undeliverable result stops the worker. */
    private void reap() {
        for (Iterator<TaskExecution> it = inFlight.iterator(); it.hasNext(); ) {
            TaskExecution e = it.next();
            CompletableFuture<TaskExecution.Outcome> c = e.completion();
            if (!c.isDone()) {
                continue;
            }
            it.remove();
            TaskExecution.Outcome outcome;
            try {
                outcome = c.join();
            } catch (RuntimeException x) {
                Throwable cause = x.getCause() != null ? x.getCause() : x;
                LOG.error("worker {}: the results of task {} could not be delivered ({}); stopping without committing "
                        + "it, so that it is redelivered", workerId, e.message().taskId(), cause.toString());
                failure = cause;
                stopRequested = true;
                continue;
            }
            if (outcome == TaskExecution.Outcome.DONE) {
                done.incrementAndGet();
                meters.done();
            } else {
                meters.abandoned(outcome == TaskExecution.Outcome.HANDED_BACK);
            }
            if (outcome != TaskExecution.Outcome.HANDED_BACK) {
                offsets.finished(e.partition(), e.offset());
            }
        }
        for (Iterator<PendingLetter> it = letters.iterator(); it.hasNext(); ) {
            PendingLetter l = it.next();
            if (!l.stored().isDone()) {
                continue;
            }
            it.remove();
            if (l.stored().isCompletedExceptionally()) {
                LOG.error("worker {}: a dead letter could not be stored; stopping without committing it", workerId);
                stopRequested = true;
                continue;
            }
            offsets.finished(l.tp(), l.offset());
        }
    }

    private void commit() {
        Map<TopicPartition, OffsetAndMetadata> c = offsets.toCommit();
        if (c.isEmpty()) {
            return;
        }
        try {
            consumer.commitSync(c, Duration.ofSeconds(5));
            offsets.committed(c);
        } catch (WakeupException e) {
            throw e;
        } catch (KafkaException e) {
            LOG.debug("commit failed (retried on the next round): {}", e.toString());
        }
    }

    /** Stopping: no new tasks; in-flight ones may finish within the grace period; the rest are handed back. */
    private void drain(KafkaProducer<String, byte[]> producer, DeadLetters deadLetters, JobPool jobs) {
        if (consumer == null) {
            return;
        }
        long deadline = time.epochMillis() + grace.toMillis();
        LOG.info("worker {} stopping: {} task(s) in flight, up to {}s to finish", workerId, inFlight.size(),
                grace.toMillis() / 1000.0);
        try {
            while ((!inFlight.isEmpty() || !letters.isEmpty()) && time.epochMillis() < deadline && failure == null) {
                step(producer, deadLetters, jobs, false);
            }
            for (TaskExecution e : inFlight) {
                LOG.info("worker {} hands task {} back", workerId, e.message().taskId());
                e.abandon("handed back: worker " + workerId + " is shutting down", true);
            }
            long until = time.epochMillis() + 10_000;
            while (!inFlight.isEmpty() && time.epochMillis() < until) {
                step(producer, deadLetters, jobs, false);
            }
            commit();
        } catch (KafkaException e) {
            LOG.debug("stopping: {}", e.toString());
        }
    }

    private final class Rebalance implements ConsumerRebalanceListener {
        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            heads.keySet().removeAll(partitions); // not taken: their next owner reads them from the committed offset
            Map<TopicPartition, OffsetAndMetadata> c = offsets.toCommit(partitions);
            if (!c.isEmpty()) {
                try {
                    consumer.commitSync(c, Duration.ofSeconds(5));
                } catch (KafkaException e) {
                    LOG.debug("commit on revocation failed: {}", e.toString());
                }
            }
            offsets.forget(partitions);
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> partitions) {
            heads.keySet().removeAll(partitions);
            offsets.forget(partitions);
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            LOG.debug("worker {} assigned {}", workerId, partitions);
        }
    }
}
