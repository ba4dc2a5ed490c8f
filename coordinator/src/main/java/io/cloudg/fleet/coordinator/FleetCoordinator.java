package io.cloudg.fleet.coordinator;

import io.cloudg.CloudGConfig;
import io.cloudg.InventoryResult;
import io.cloudg.collect.CollectionTask;
import io.cloudg.collect.Coverage;
import io.cloudg.collect.CollectorJob;
import io.cloudg.collect.LogContext;
import io.cloudg.collect.TaskRunner;
import io.cloudg.fleet.FleetSettings;
import io.cloudg.fleet.kafka.FleetTopics;
import io.cloudg.fleet.coordinator.GroupView;
import io.cloudg.fleet.kafka.DeadLetters;
import io.cloudg.fleet.kafka.KafkaClients;
import io.cloudg.fleet.kafka.KafkaMetrics;
import io.cloudg.fleet.kafka.ResultEmitter;
import io.cloudg.fleet.plan.FleetPlan;
import io.cloudg.fleet.plan.FleetPlanner;
import io.cloudg.replan.Replanners;
import io.cloudg.fleet.plan.TaskOrder;
import io.cloudg.fleet.protocol.DeadLetter;
import io.cloudg.fleet.protocol.MalformedMessageException;
import io.cloudg.fleet.protocol.MessageCodec;
import io.cloudg.fleet.protocol.PlannedTask;
import io.cloudg.fleet.protocol.ResultMessage;
import io.cloudg.fleet.protocol.RunFinished;
import io.cloudg.fleet.protocol.RunPlanned;
import io.cloudg.fleet.protocol.TaskMessage;
import io.cloudg.fleet.protocol.Wire;
import io.cloudg.fleet.protocol.WireThrottling;
import io.cloudg.inventory.AssetSpool;
import io.cloudg.inventory.CoverageRecord;
import io.cloudg.inventory.ServiceCoverage;
import io.cloudg.inventory.Summary;
import io.cloudg.metrics.CloudgMetrics;
import io.cloudg.metrics.FleetMetrics;
import io.cloudg.metrics.MapMetrics;
import io.cloudg.resilience.Governor;
import io.cloudg.resilience.core.Time;
import io.cloudg.resilience.report.ThrottlingReport;
import io.cloudg.resilience.report.ThrottlingStats;
import io.cloudg.destination.RunStart;
import io.cloudg.run.RunIds;
import io.cloudg.output.RunOutput;
import io.cloudg.run.CallEstimates;
import io.cloudg.run.PriorRun;
import io.cloudg.config.StartupException;
import io.cloudg.run.WorkLeft;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import io.cloudg.resilience.time.TimeSource;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The coordinator of a fleet map ({@code cloudg map --distributed}): discovers the estate through the
 * governor, plans fleet tasks, journals the plan, publishes the tasks in an order that spreads them over
 * quota buckets, and follows the results until every task is done or given up; then writes the same
 * {@code inventory-map.json} an embedded map writes, streaming assets from disk. {@link #resume} continues
 * a run whose coordinator died, from the journal and the results already in Kafka.
 *
 * <p>One thread does everything; {@link #view()} and {@link #stop()} may be called from others.
 */
public final class FleetCoordinator {
    private static final Logger LOG = LoggerFactory.getLogger("cloudg.fleet.coordinator");
    private static final Logger THROTTLING = LoggerFactory.getLogger("cloudg.throttling");
    private static final Duration KAFKA_TIMEOUT = Duration.ofSeconds(30);
    /** How often the group's lag on the tasks topic is read for {@code cloudg_fleet_tasks_lag}. */
    static final long LAG_EVERY_MS = 5_000;
    /**
     * How often, at most, the run's view ({@link #view()}), the progress line's figures and the gauges are
     * brought up to date while results arrive (and once more at the end): each walks every task or quota scope.
     */
    static final long BOOKKEEPING_EVERY_MS = 250;

    private final CloudGConfig config;
    private final FleetSettings fleet;
    private final KafkaClients kafka;
    private final Governor governor;
    private final TimeSource time;
    private final Consumer<String> progressOut;
    private final CloudgMetrics metrics;
    private final FleetMetrics.Coordinator meters;
    private final MapMetrics mapMetrics;
    private final MessageCodec codec = new MessageCodec();
    private final String clientId = "cloudg-coordinator-" + ProcessHandle.current().pid();
    private volatile RunView view;
    private volatile boolean stopRequested;

    public FleetCoordinator(CloudGConfig config, FleetSettings fleet, KafkaClients kafka, Governor governor, TimeSource time,
                            Consumer<String> progressOut) {
        this(config, fleet, kafka, governor, time, progressOut, CloudgMetrics.none());
    }

    /** A coordinator whose run (tasks published, retried, given up, the group's lag, ...) is counted in {@code metrics}. */
    public FleetCoordinator(CloudGConfig config, FleetSettings fleet, KafkaClients kafka, Governor governor, TimeSource time,
                            Consumer<String> progressOut, CloudgMetrics metrics) {
        this.metrics = metrics;
        this.meters = FleetMetrics.of(metrics).coordinator();
        this.mapMetrics = MapMetrics.of(metrics);
        this.config = config;
        this.fleet = fleet;
        this.kafka = kafka;
        this.governor = governor;
        this.time = time;
        this.progressOut = progressOut;
    }

    /** The run being followed, or null before one is planned. */
    public RunView view() {
        return view;
    }

    /** Stops following the run (it stays resumable); {@link #run} and {@link #resume} then throw {@link RunStoppedException}. */
    public void stop() {
        stopRequested = true;
    }

    /** Maps the configured estate as a new run. */
    public InventoryResult run() {
        return start(RunIds.next(time));
    }

    /**
     * Run {@code runId}: resumed if the journal holds its sealed plan, else started under that id. A
     * scheduled sweep names its run after its Kubernetes Job, so a retried pod of the same Job continues the
     * run its predecessor started instead of starting a second one.
     */
    public InventoryResult runOrResume(String runId) {
        if (!RunIds.valid(runId)) {
            throw new StartupException("--run-id: not a run id (1-100 characters of [A-Za-z0-9._-]): " + runId);
        }
        boolean sealed;
        try (KafkaConsumer<String, byte[]> reader = kafka.reader(clientId + "-journal");
             Admin admin = kafka.admin(clientId + "-admin")) {
            topics(admin);
            sealed = new RunJournal(fleet.topics().runs(), codec).find(reader, runId, KAFKA_TIMEOUT, time).isPresent();
        }
        if (sealed) {
            LOG.info("run {} is in the journal: resuming it", runId);
            return resume(runId);
        }
        return start(runId);
    }

    private InventoryResult start(String runId) {
        if (config.providers().isEmpty()) {
            throw new StartupException("no provider to map: set providers (aws, azure, gcp) or pass -p");
        }
        Instant started = time.instant();
        ThrottlingStats runStats = new ThrottlingStats();
        try (LogContext context = LogContext.run(runId);
             Admin admin = kafka.admin(clientId + "-admin");
             KafkaProducer<String, byte[]> producer = kafka.producer(clientId);
             KafkaConsumer<String, byte[]> reader = kafka.resultsReader(clientId + "-reader");
             CloudgMetrics.Binding producerMetrics = KafkaMetrics.bind(metrics, producer);
             CloudgMetrics.Binding readerMetrics = KafkaMetrics.bind(metrics, reader)) {
            topics(admin);
            Map<Integer, Long> resultsStart = FleetTopics.endOffsets(admin, fleet.topics().results(), KAFKA_TIMEOUT, time);
            Map<Integer, Long> lettersStart = FleetTopics.endOffsets(admin, fleet.topics().deadLetters(), KAFKA_TIMEOUT, time);
            Map<Integer, Long> tasksStart = FleetTopics.endOffsets(admin, fleet.topics().tasks(), KAFKA_TIMEOUT, time);
            FleetPlan plan;
            CallEstimates estimates = new CallEstimates(PriorRun.read(config.outputDir()), config.callShapes());
            try (Replanners providers = Replanners.open(config.providers(), config, governor, 64)) {
                plan = new FleetPlanner(fleet.maxCollectorsPerTask(), estimates).plan(providers, runStats);
                runLocal(runId, plan, producer);
            }
            RunPlanned planned = new RunPlanned(Wire.VERSION, runId, started.toEpochMilli(), plan.providers(),
                    plan.tasks().size(), RunJournal.chunks(plan.tasks().size()), fleet.taskTimeout().toMillis(),
                    fleet.maxAttempts(), plan.discovery(), resultsStart, lettersStart, tasksStart, plan.skipped());
            new RunJournal(fleet.topics().runs(), codec).write(producer, planned, plan.tasks());
            LOG.info("run {}: {} task(s) planned ({} in the coordinator)", runId, plan.tasks().size(), plan.localJobs().size());
            Follow f = new Follow(planned, plan.tasks(), runStats, false, admin, producer, reader, output(planned),
                    estimates);
            List<TaskMessage> first = new ArrayList<>();
            for (PlannedTask t : TaskOrder.bySize(plan.remoteTasks())) {
                first.add(TaskMessage.first(runId, t, fleet.taskTimeout().toMillis(), time.epochMillis()));
            }
            f.publisher.publishAll(first);
            meters.published(first.size());
            first.forEach(m -> f.tracker.published(m.taskId(), 1));
            progressOut.accept("run " + runId + ": published " + first.size() + " task(s) to " + fleet.topics().tasks());
            return f.follow();
        }
    }

    /** Continues run {@code runId}: its plan from the journal, its results so far from Kafka. */
    public InventoryResult resume(String runId) {
        if (!RunIds.valid(runId)) {
            throw new StartupException("--resume: not a run id: " + runId);
        }
        ThrottlingStats runStats = new ThrottlingStats();
        try (LogContext context = LogContext.run(runId);
             Admin admin = kafka.admin(clientId + "-admin");
             KafkaProducer<String, byte[]> producer = kafka.producer(clientId);
             KafkaConsumer<String, byte[]> reader = kafka.resultsReader(clientId + "-reader");
             CloudgMetrics.Binding producerMetrics = KafkaMetrics.bind(metrics, producer);
             CloudgMetrics.Binding readerMetrics = KafkaMetrics.bind(metrics, reader)) {
            topics(admin);
            RunJournal.Found found = new RunJournal(fleet.topics().runs(), codec).read(reader, runId, KAFKA_TIMEOUT, time);
            RunPlanned planned = found.planned();
            Map<String, Integer> published = publishedAttempts(reader, planned);
            CallEstimates estimates = new CallEstimates(PriorRun.read(config.outputDir()), config.callShapes());
            Follow f = new Follow(planned, found.tasks(), runStats, true, admin, producer, reader, output(planned),
                    estimates);
            List<TaskMessage> missing = new ArrayList<>();
            for (PlannedTask t : TaskOrder.bySize(found.tasks().stream().filter(t -> !t.local()).toList())) {
                Integer attempt = published.get(t.taskId());
                if (attempt == null) {
                    missing.add(TaskMessage.first(runId, t, planned.taskTimeoutMs(), time.epochMillis()));
                } else {
                    f.tracker.published(t.taskId(), attempt);
                }
            }
            f.publisher.publishAll(missing);
            meters.published(missing.size());
            missing.forEach(m -> f.tracker.published(m.taskId(), 1));
            progressOut.accept("run " + runId + ": resumed (" + found.tasks().size() + " task(s), " + missing.size()
                    + " published now)");
            return f.follow();
        }
    }

    /** The run's spool and destinations (which hear of a resumed run under its own id again). */
    private RunOutput output(RunPlanned planned) {
        return RunOutput.start(config, new RunStart(planned.runId(), "distributed", planned.providers(),
                Instant.ofEpochMilli(planned.createdAt())), true);
    }

    private void topics(Admin admin) {
        if (fleet.kafka().createTopics()) {
            FleetTopics.ensure(admin, fleet.topics(), fleet.kafka().bootstrapServers(), KAFKA_TIMEOUT);
        } else {
            FleetTopics.await(admin, List.of(fleet.topics().tasks(), fleet.topics().results(),
                    fleet.topics().deadLetters(), fleet.topics().runs()), fleet.kafka().bootstrapServers(), KAFKA_TIMEOUT);
        }
    }

    /** The highest attempt of each of the run's tasks already on the tasks topic. */
    private Map<String, Integer> publishedAttempts(KafkaConsumer<String, byte[]> reader, RunPlanned planned) {
        List<TopicPartition> parts = FleetTopics.partitions(reader, fleet.topics().tasks(), KAFKA_TIMEOUT, time);
        reader.assign(parts);
        for (TopicPartition tp : parts) {
            Long start = planned.tasksStart().get(tp.partition());
            if (start == null) {
                reader.seekToBeginning(List.of(tp));
            } else {
                reader.seek(tp, start);
            }
        }
        Map<TopicPartition, Long> end = reader.endOffsets(parts, KAFKA_TIMEOUT);
        Map<String, Integer> out = new HashMap<>();
        while (!RunJournal.caughtUp(reader, end)) {
            for (ConsumerRecord<String, byte[]> r : reader.poll(Duration.ofMillis(200))) {
                if (!planned.runId().equals(header(r, MessageCodec.RUN_HEADER))) {
                    continue;
                }
                try {
                    TaskMessage m = codec.task(r.value());
                    out.merge(m.taskId(), m.attempt(), Math::max);
                } catch (MalformedMessageException e) {
                    LOG.debug("skipping an unreadable task message at {}-{}@{}", r.topic(), r.partition(), r.offset());
                }
            }
        }
        reader.unsubscribe();
        return out;
    }

    /** Runs the tasks whose jobs come from discovery and publishes their results like a worker's. */
    private void runLocal(String runId, FleetPlan plan, KafkaProducer<String, byte[]> producer) {
        List<CompletableFuture<Void>> sent = new ArrayList<>();
        for (PlannedTask t : plan.tasks()) {
            CollectionTask task = plan.localJobs().get(t.taskId());
            if (task == null) {
                continue;
            }
            TaskMessage m = TaskMessage.first(runId, t.taskId(), t.target(), fleet.taskTimeout().toMillis(), time.epochMillis());
            String executionId = clientId + ":" + t.taskId();
            ResultEmitter emitter = new ResultEmitter(producer, fleet.topics().results(), codec, m, executionId, clientId,
                    fleet.worker().chunkAssets(), fleet.worker().chunkBytes());
            long startedAt = time.epochMillis();
            emitter.started(startedAt);
            ThrottlingStats stats = new ThrottlingStats();
            List<ServiceCoverage> coverage = new ArrayList<>();
            for (CollectorJob job : task.jobs()) {
                coverage.add(TaskRunner.runJob(Coverage.of(governor), task, job, stats, emitter, mapMetrics));
            }
            sent.add(emitter.done(coverage, WireThrottling.of(stats), startedAt, time.epochMillis()));
        }
        producer.flush();
        try {
            CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while storing the coordinator's own results", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("Kafka did not take the coordinator's own results: " + e.getCause(), e.getCause());
        }
    }

    private static String header(ConsumerRecord<String, byte[]> r, String name) {
        Header h = r.headers().lastHeader(name);
        return h == null || h.value() == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    /** Following one run to its end. */
    private final class Follow {
        final RunPlanned planned;
        final List<PlannedTask> tasks;
        final ThrottlingStats runStats;
        final boolean resumed;
        /** When this coordinator took the run up: a resumed run's duration counts from here, not from its plan. */
        final long sessionStartedAt = time.epochMillis();
        final KafkaProducer<String, byte[]> producer;
        final KafkaConsumer<String, byte[]> reader;
        final AttemptTracker tracker;
        final TaskPublisher publisher;
        final DeadLetters deadLetters;
        final GroupView group;
        final Map<String, PlannedTask> byId = new LinkedHashMap<>();
        final RunOutput output;
        final CallEstimates estimates;
        int lettered;
        /** When the lag and the bookkeeping were last done ({@link Time#NEVER}: {@link Time#since} is then infinite). */
        long lagReadAt = Time.NEVER;
        long bookkeptAt = Time.NEVER;

        Follow(RunPlanned planned, List<PlannedTask> tasks, ThrottlingStats runStats, boolean resumed, Admin admin,
               KafkaProducer<String, byte[]> producer, KafkaConsumer<String, byte[]> reader, RunOutput output,
               CallEstimates estimates) {
            this.output = output;
            this.estimates = estimates;
            this.planned = planned;
            this.tasks = tasks;
            this.runStats = runStats;
            this.resumed = resumed;
            this.producer = producer;
            this.reader = reader;
            this.tracker = new AttemptTracker(planned.taskTimeoutMs(), fleet.lostGrace().toMillis(),
                    fleet.handbackWait().toMillis(), planned.maxAttempts());
            int partitions = FleetTopics.partitions(reader, fleet.topics().tasks(), KAFKA_TIMEOUT, time).size();
            this.group = new GroupView(admin, fleet.group(), fleet.topics().tasks());
            this.publisher = new TaskPublisher(producer, fleet.topics().tasks(), partitions, codec, group, time);
            this.deadLetters = new DeadLetters(producer, fleet.topics().deadLetters(), codec, clientId, time);
            tasks.forEach(t -> byId.put(t.taskId(), t));
        }

        InventoryResult follow() {
            String runId = planned.runId();
            Path out = config.outputDir();
            AssetSpool spool = output.spool();
            try (RunOutput closing = output; StagingArea staging = new StagingArea(out.resolve(".cloudg-staging-" + runId))) {
                WorkLeft work = new WorkLeft(estimates, WorkLeft.Limits.of(governor.config()));
                ResultAggregator results = new ResultAggregator(tasks, spool, staging, tracker, new FleetThrottling(runStats),
                        work);
                Map<TopicPartition, Long> caughtUpAt = position(fleet.topics().results(), planned.resultsStart(),
                        fleet.topics().deadLetters(), planned.deadLettersStart());
                boolean replayed = !resumed;
                FleetProgress progress = new FleetProgress(time, fleet.progressInterval(), progressOut);
                while (!results.complete()) {
                    if (stopRequested) {
                        spool.delete();
                        throw new RunStoppedException(runId);
                    }
                    for (ConsumerRecord<String, byte[]> r : reader.poll(Duration.ofMillis(200))) {
                        if (r.topic().equals(fleet.topics().results())) {
                            result(r, results);
                        } else {
                            deadLetter(r, results);
                        }
                    }
                    if (!replayed && RunJournal.caughtUp(reader, caughtUpAt)) {
                        replayed = true;
                        for (PlannedTask t : results.pending()) {
                            if (t.local()) {
                                results.giveUp(t.taskId(), "ran in a coordinator that stopped before its results were stored");
                            }
                        }
                    }
                    long now = time.epochMillis();
                    for (AttemptTracker.Action a : tracker.due(now)) {
                        act(a, results);
                    }
                    if (Time.since(now, bookkeptAt) >= BOOKKEEPING_EVERY_MS) {
                        bookkeptAt = now;
                        bookkeep(results, spool, progress, false);
                    }
                }
                bookkeep(results, spool, progress, true);
                return finish(results, spool);
            }
        }

        private Map<TopicPartition, Long> position(String results, Map<Integer, Long> resultsStart, String letters,
                                                   Map<Integer, Long> lettersStart) {
            List<TopicPartition> rp = FleetTopics.partitions(reader, results, KAFKA_TIMEOUT, time);
            List<TopicPartition> lp = FleetTopics.partitions(reader, letters, KAFKA_TIMEOUT, time);
            List<TopicPartition> all = new ArrayList<>(rp);
            all.addAll(lp);
            reader.assign(all);
            for (TopicPartition tp : rp) {
                seek(tp, resultsStart.get(tp.partition()));
            }
            for (TopicPartition tp : lp) {
                seek(tp, lettersStart.get(tp.partition()));
            }
            return reader.endOffsets(rp, KAFKA_TIMEOUT);
        }

        /**
         * Brings the run's view, the progress line ({@code last}: the closing one) and the gauges up to date:
         * the executions running per worker are counted once for all three (a walk over every task of the run;
         * per poll, this walk and one over every quota scope were most of the coordinator's CPU).
         */
        private void bookkeep(ResultAggregator results, AssetSpool spool, FleetProgress progress, boolean last) {
            Map<String, Integer> running = tracker.runningByWorker();
            view = new RunView(planned.runId(), results.done(), results.total(), running, spool.count(),
                    results.duplicates(), publisher.retries(), lettered);
            FleetProgress.Snapshot s = snapshot(results, spool, running.size());
            if (last) {
                progress.last(s);
            } else {
                progress.tick(s);
            }
            measure(results, running.size());
        }

        /** The run's gauges, and the group's lag at most every {@link #LAG_EVERY_MS} (an Admin round trip). */
        private void measure(ResultAggregator results, int busyWorkers) {
            meters.run(results.total(), results.done(), busyWorkers);
            long now = time.epochMillis();
            if (metrics.enabled() && Time.since(now, lagReadAt) >= LAG_EVERY_MS) {
                lagReadAt = now;
                group.lag(Duration.ofSeconds(5)).ifPresent(meters::lag);
            }
        }

        private void seek(TopicPartition tp, Long offset) {
            if (offset == null) {
                reader.seekToBeginning(List.of(tp));
            } else {
                reader.seek(tp, offset);
            }
        }

        private void result(ConsumerRecord<String, byte[]> r, ResultAggregator results) {
            String run = header(r, MessageCodec.RUN_HEADER);
            if (run != null && !run.equals(planned.runId())) {
                return;
            }
            ResultMessage m;
            try {
                m = codec.result(r.value());
            } catch (MalformedMessageException e) {
                deadLetters.send(r, e.reason());
                lettered++;
                meters.resultDeadLettered();
                return;
            }
            if (m.runId().equals(planned.runId())) {
                long now = time.epochMillis();
                if (r.timestampType() == org.apache.kafka.common.record.TimestampType.CREATE_TIME) {
                    meters.delivered(now - r.timestamp());
                }
                results.onResult(m, now);
            }
        }

        private void deadLetter(ConsumerRecord<String, byte[]> r, ResultAggregator results) {
            if (!planned.runId().equals(header(r, MessageCodec.RUN_HEADER))) {
                return;
            }
            DeadLetter d;
            try {
                d = codec.deadLetter(r.value());
            } catch (MalformedMessageException e) {
                LOG.debug("unreadable dead letter at {}@{}: {}", r.partition(), r.offset(), e.reason());
                return;
            }
            if (d.topic().equals(fleet.topics().tasks()) && d.key() != null && results.knows(d.key())) {
                lettered++;
                meters.givenUp();
                results.giveUp(d.key(), "dead-lettered by " + d.refusedBy() + ": " + d.reason());
            }
        }

        private void act(AttemptTracker.Action a, ResultAggregator results) {
            if (a instanceof AttemptTracker.GiveUp g) {
                try (LogContext context = taskContext(g.taskId())) {
                    LOG.warn("task {} given up: {}", g.taskId(), g.reason());
                }
                meters.givenUp();
                results.giveUp(g.taskId(), g.reason());
            } else if (a instanceof AttemptTracker.Retry r) {
                PlannedTask t = byId.get(r.taskId());
                TaskMessage next = TaskMessage.first(planned.runId(), t, planned.taskTimeoutMs(),
                        time.epochMillis()).retry(r.attempt(), time.epochMillis(), r.avoidWorker());
                Integer partition = publisher.retry(next);
                meters.retried();
                try (LogContext context = taskContext(r.taskId())) {
                    LOG.info("task {} published again as attempt {} (partition {}): {}", r.taskId(), r.attempt(),
                            partition == null ? "any" : partition, r.reason());
                }
            }
        }

        /** The task's id, provider, account and region on this thread's log lines until closed. */
        private LogContext taskContext(String taskId) {
            PlannedTask t = byId.get(taskId);
            Map<String, String> m = new HashMap<>();
            m.put(LogContext.TASK_ID, taskId);
            if (t != null) {
                m.put(LogContext.PROVIDER, t.target().provider());
                m.put(LogContext.ACCOUNT, t.target().accountId());
                m.put(LogContext.REGION, t.target().region());
            }
            return LogContext.bind(m);
        }

        private FleetProgress.Snapshot snapshot(ResultAggregator results, AssetSpool spool, int busyWorkers) {
            long calls = runStats.totals().calls();
            return new FleetProgress.Snapshot(results.done(), results.total(), busyWorkers,
                    spool.count(), calls, publisher.retries(), results.duplicates(), results.failedTasks(),
                    results.work(time.epochMillis(), calls));
        }

        private InventoryResult finish(ResultAggregator results, AssetSpool spool) {
            List<CoverageRecord> coverage = new ArrayList<>(planned.discovery());
            coverage.addAll(results.coverage());
            ThrottlingReport report = governor.report(runStats);
            ThrottlingReport throttling = report.eventful() ? report : null;
            if (throttling != null) {
                throttling.messages().forEach(m -> THROTTLING.warn("Throttling: {}", m));
            }
            Instant started = Instant.ofEpochMilli(planned.createdAt());
            double seconds = (time.epochMillis() - (resumed ? sessionStartedAt : planned.createdAt())) / 1000.0;
            Summary summary = Summary.of(spool.count(), spool.countByProvider(), coverage, planned.skipped(), seconds,
                    throttling == null ? null : throttling.summary());
            Map<String, Object> run = new LinkedHashMap<>();
            run.put("id", planned.runId());
            run.put("mode", "distributed");
            run.put("providers", planned.providers());
            run.put("started_at", started.toString());
            if (resumed) {
                run.put("resumed_at", Instant.ofEpochMilli(sessionStartedAt).toString());
            }
            run.put("finished_at", time.instant().toString());
            run.put("governor", governor.store().status().map(io.cloudg.resilience.spi.StoreStatus::mode).orElse("memory"));
            run.put("governor_store", governor.store().describe());
            Map<String, Object> f = new LinkedHashMap<>();
            f.put("tasks", results.total());
            f.put("workers", results.workers());
            f.put("executions", results.executions());
            f.put("retries", publisher.retries());
            f.put("duplicates_dropped", results.duplicates());
            f.put("dead_letters", lettered);
            f.put("given_up", results.failedTasks());
            f.put("resumed", resumed);
            run.put("fleet", f);
            Map<String, Object> facts = new LinkedHashMap<>();
            for (PlannedTask t : tasks) {
                if (!t.target().discovery().isEmpty()) {
                    facts.putIfAbsent(t.target().provider(), t.target().discovery());
                }
            }
            if (!facts.isEmpty()) {
                run.put("discovery", facts);
            }
            InventoryResult result = output.finish(planned.runId(), run, summary, coverage, throttling, time.instant());
            Path file = result.mapFile();
            new RunJournal(fleet.topics().runs(), codec).finished(producer, new RunFinished(Wire.VERSION,
                    planned.runId(), time.epochMillis(), spool.count(), summary.complete(), file.toAbsolutePath().toString()));
            LOG.info("run {}: wrote {} ({} assets, {} records; {} execution(s), {} duplicate(s) dropped, {} retried)",
                    planned.runId(), file, spool.count(), coverage.size(), results.executions(), results.duplicates(),
                    publisher.retries());
            return result;
        }
    }
}
