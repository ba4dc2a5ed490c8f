package io.cloudg.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudg.collect.CollectionTask;
import io.cloudg.collect.CollectorJob;
import io.cloudg.collect.JobCost;
import io.cloudg.collect.TaskRunner;
import io.cloudg.inventory.CoverageStatus;
import io.cloudg.inventory.ServiceCoverage;
import io.cloudg.resilience.Governor;
import io.cloudg.resilience.spi.Scope;
import io.cloudg.resilience.time.ManualTimeSource;
import io.cloudg.run.CallEstimates;
import io.cloudg.run.CallShapes;
import io.cloudg.run.PriorRun;
import java.io.ByteArrayInputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The embedded progress line over a whole map, deterministically: the runner's own job order
 * ({@link TaskRunner#order}) played on 8 simulated threads against a fake clock, every call 20 ms, the
 * heavy jobs' calls paced by their bucket (burst 100, 20 a second, as EC2's). A line a second.
 */
class ProgressTest {
    static final Pattern LINE = Pattern.compile("\\[(\\d+)/(\\d+) jobs \\((\\d+)%\\)] .* ETA (?:(\\d+):(\\d+)|--:--)$");
    static final int THREADS = 8;
    static final long LATENCY_MS = 20;

    /** 300 account x regions of four collectors; three of them hold 400 AMIs (a DescribeImageAttribute each). */
    static List<CollectionTask> estate() {
        List<CollectionTask> tasks = new ArrayList<>();
        for (int a = 0; a < 300; a++) {
            List<CollectorJob> jobs = new ArrayList<>();
            for (String c : List.of("vpc", "subnets", "security_groups", "amis")) {
                jobs.add(new CollectorJob(c, sink -> { }));
            }
            tasks.add(new CollectionTask("aws", "a" + a, "us-east-1", jobs));
        }
        return tasks;
    }

    static long items(CollectionTask t, CollectorJob j) {
        if (j.service().equals("amis")) {
            return Integer.parseInt(t.accountId().substring(1)) % 100 == 7 ? 400 : 12;
        }
        return j.service().equals("subnets") ? 3 : 1;
    }

    record Sample(long atMillis, String line) {
    }

    /** One simulated thread: its job, the calls it has left, when it makes the next. */
    static final class Slot {
        CollectionTask task;
        CollectorJob job;
        long left;
        long nextAt;
        double tokens = 100;
        long tokensAt;
    }

    /** Plays a map; returns a line per second of it, the last one at its end. */
    static List<Sample> play(List<CollectionTask> tasks, JobCost cost, ManualTimeSource clock) {
        return play(tasks, cost, clock, t -> LATENCY_MS);
    }

    /** As above, a call taking {@code latency} (of the milliseconds since the start) milliseconds. */
    static List<Sample> play(List<CollectionTask> tasks, JobCost cost, ManualTimeSource clock,
                             java.util.function.LongUnaryOperator latency) {
        List<Sample> samples = new ArrayList<>();
        try (Governor g = Governor.builder().time(clock).build()) {
            Progress progress = new Progress(g, new io.cloudg.cli.log.ConsoleLine(() -> new PrintStream(PrintStream.nullOutputStream())), Progress.Mode.LOG, false);
            progress.planned(tasks, cost);
            long[] order = TaskRunner.order(tasks, cost);
            int next = 0;
            int running = 0;
            Slot[] slots = new Slot[THREADS];
            for (int i = 0; i < THREADS; i++) {
                slots[i] = new Slot();
            }
            long start = clock.epochMillis();
            long nextSample = start + 1000;
            while (next < order.length || running > 0) {
                long now = clock.epochMillis();
                for (Slot s : slots) {
                    if (s.job == null && next < order.length) {
                        long k = order[next++];
                        s.task = tasks.get((int) (k >>> 32));
                        s.job = s.task.jobs().get((int) k);
                        s.left = CallShapes.of("aws", s.job.service()).calls(items(s.task, s.job));
                        s.nextAt = now;
                        s.tokens = 100;
                        s.tokensAt = now;
                        running++;
                        progress.jobStarted(s.task, s.job);
                    }
                    while (s.job != null && s.left > 0 && s.nextAt <= now) {
                        s.tokens = Math.min(100, s.tokens + 20 * (now - s.tokensAt) / 1000.0);
                        s.tokensAt = now;
                        if (s.tokens < 1) {
                            s.nextAt = now + (long) Math.ceil((1 - s.tokens) / 20 * 1000);
                            break;
                        }
                        s.tokens -= 1;
                        g.stats().counters(Scope.of("aws", s.task.accountId(), s.task.region(), "ec2")).call();
                        s.left--;
                        s.nextAt = now + latency.applyAsLong(now - start);
                    }
                    if (s.job != null && s.left == 0 && s.nextAt <= now) {
                        progress.jobDone(s.task, s.job, new ServiceCoverage(s.job.service(), CoverageStatus.SUCCESS,
                                items(s.task, s.job), null));
                        s.job = null;
                        running--;
                    }
                }
                if (now >= nextSample) {
                    samples.add(new Sample(now - start, progress.line()));
                    nextSample += 1000;
                }
                clock.advance(Duration.ofMillis(10));
            }
            samples.add(new Sample(clock.epochMillis() - start, progress.line()));
        }
        return samples;
    }

    /** The map a run of {@link #estate} writes, as the next run reads it. */
    static CallEstimates prior(List<CollectionTask> tasks) throws Exception {
        return prior(tasks, Double.NaN);
    }

    /** As above, the map saying it ran {@code seconds} (NaN: not saying). */
    static CallEstimates prior(List<CollectionTask> tasks, double seconds) throws Exception {
        StringBuilder json = new StringBuilder("{\"run\": {\"mode\": \"embedded\"}, ");
        if (!Double.isNaN(seconds)) {
            json.append("\"summary\": {\"duration_seconds\": ").append(seconds).append("}, ");
        }
        json.append("\"coverage\": [");
        for (int i = 0; i < tasks.size(); i++) {
            CollectionTask t = tasks.get(i);
            json.append(i == 0 ? "" : ",").append("{\"provider\":\"aws\",\"account_id\":\"").append(t.accountId())
                    .append("\",\"region\":\"").append(t.region()).append("\",\"services\":[");
            for (int j = 0; j < t.jobs().size(); j++) {
                CollectorJob job = t.jobs().get(j);
                json.append(j == 0 ? "" : ",").append("{\"service\":\"").append(job.service()).append("\",\"asset_count\":")
                        .append(items(t, job)).append("}");
            }
            json.append("]}");
        }
        json.append("]}");
        return new CallEstimates(PriorRun.parse(new ByteArrayInputStream(json.toString().getBytes(StandardCharsets.UTF_8)),
                null));
    }

    static Matcher parse(Sample s) {
        Matcher m = LINE.matcher(s.line());
        assertThat(m.find()).as(s.line()).isTrue();
        return m;
    }

    @Test
    void theJobsCounterAndTheShareMoveEverySecondAndTheEtaIsTheTimeLeft() throws Exception {
        List<CollectionTask> tasks = estate();
        CallEstimates sized = prior(tasks);
        List<Sample> samples = play(tasks, sized, new ManualTimeSource());
        long total = samples.get(samples.size() - 1).atMillis();
        assertThat(samples.get(samples.size() - 1).line()).startsWith("[1200/1200 jobs (100%)]").endsWith("ETA 0:00");

        int lastJobs = -1;
        int lastShare = -1;
        for (Sample s : samples.subList(0, samples.size() - 1)) {
            Matcher m = parse(s);
            int jobs = Integer.parseInt(m.group(1));
            int share = Integer.parseInt(m.group(3));
            assertThat(jobs).as("jobs at %d ms: %s", s.atMillis(), s.line()).isGreaterThan(lastJobs);
            assertThat(share).as("share at %d ms: %s", s.atMillis(), s.line()).isGreaterThanOrEqualTo(lastShare);
            lastJobs = jobs;
            lastShare = share;
            double left = (total - s.atMillis()) / 1000.0;
            double eta = Integer.parseInt(m.group(4)) * 60 + Integer.parseInt(m.group(5));
            if (s.atMillis() >= 2000) {
                assertThat(m.group(4)).as(s.line()).isNotNull();
                assertThat(eta).as("ETA at %d ms of %d: %s", s.atMillis(), total, s.line())
                        .isBetween(left * 0.8 - 1.5, left * 1.2 + 1.5);
            }
        }
        assertThat(samples.get(samples.size() / 4).line()).as("the heavy jobs lead: %s", samples)
                .matches(".*\\[\\d+/1200 jobs \\(\\d+%\\)].*");
    }

    /**
     * Without the previous map's sizes the AMI listings (per-item calls) still go first, so the three large
     * ones run beside the rest; the counter moves every second while every thread has work (only the last
     * few jobs, fewer than the threads, may run alone), and the line never says done before the end.
     */
    @Test
    void aFirstMapLearnsTheSizesAndItsCounterStillMovesEverySecond() {
        List<CollectionTask> tasks = estate();
        List<Sample> samples = play(tasks, CallEstimates.NONE, new ManualTimeSource());
        int lastJobs = -1;
        for (Sample s : samples.subList(0, samples.size() - 1)) {
            Matcher m = parse(s);
            int jobs = Integer.parseInt(m.group(1));
            if (1200 - lastJobs > THREADS) {
                assertThat(jobs).as("jobs at %d ms: %s", s.atMillis(), s.line()).isGreaterThan(lastJobs);
            }
            assertThat(Integer.parseInt(m.group(3))).as(s.line()).isLessThan(100);
            lastJobs = jobs;
        }
    }

    @Test
    void theLiveLineIsForAStandardErrorThatIsATerminalAndTextLogsAndNoProgressMeansNone() {
        assertThat(Progress.Mode.of(false, true, false)).isEqualTo(Progress.Mode.LIVE);
        assertThat(Progress.Mode.of(false, false, false)).as("stderr redirected: log lines").isEqualTo(Progress.Mode.LOG);
        assertThat(Progress.Mode.of(false, true, true)).as("JSON logs: every stderr line an object").isEqualTo(Progress.Mode.LOG);
        assertThat(Progress.Mode.of(true, true, false)).isEqualTo(Progress.Mode.OFF);
        assertThat(Progress.Mode.of(true, false, true)).as("--no-progress: no log lines either").isEqualTo(Progress.Mode.OFF);
    }

    @Test
    void withoutProgressNothingTicksAndALoggedLineCarriesItsFiguresAsFields() throws Exception {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        io.cloudg.cli.log.ConsoleLine console = into(bytes);
        ManualTimeSource clock = new ManualTimeSource();
        try (Governor g = Governor.builder().time(clock).build();
             Progress off = new Progress(g, console, Progress.Mode.OFF, true)) {
            assertThat(off.ticking()).as("--no-progress starts no ticker").isFalse();
        }
        try (AutoCloseable logs = jsonLogs(console);
             Governor g = Governor.builder().time(clock).build();
             Progress log = new Progress(g, console, Progress.Mode.LOG, false)) {
            List<CollectionTask> tasks = estate().subList(0, 2);
            log.planned(tasks, CallEstimates.NONE);
            CollectionTask t = tasks.get(0);
            log.jobStarted(t, t.jobs().get(0));
            g.stats().counters(Scope.of("aws", t.accountId(), t.region(), "ec2")).call();
            clock.advance(Duration.ofSeconds(10));
            log.jobDone(t, t.jobs().get(0), new ServiceCoverage("vpc", CoverageStatus.SUCCESS, 1, null));
            log.tick();
            com.fasterxml.jackson.databind.JsonNode n = lastLine(bytes);
            assertThat(n.get("log.logger").asText()).isEqualTo("cloudg.progress");
            assertThat(n.get("message").asText()).startsWith("progress: [1/8 jobs (12%)] ");
            assertThat(n.get("jobs_done").asInt()).isEqualTo(1);
            assertThat(n.get("jobs_total").asInt()).isEqualTo(8);
            assertThat(n.get("calls").asInt()).isEqualTo(1);
            assertThat(n.has("eta_seconds")).as("not known yet: left out, not a string").isFalse();
            log.jobStarted(t, t.jobs().get(1));
            g.stats().counters(Scope.of("aws", t.accountId(), t.region(), "ec2")).call();
            clock.advance(Duration.ofSeconds(10));
            log.tick();
            n = lastLine(bytes);
            assertThat(n.get("eta_seconds").isNumber()).as(n.toString()).isTrue();
        }
    }

    /** An 80-column console whose lines go to {@code bytes}. */
    static io.cloudg.cli.log.ConsoleLine into(java.io.ByteArrayOutputStream bytes) {
        return new io.cloudg.cli.log.ConsoleLine(() -> new PrintStream(bytes, true, StandardCharsets.UTF_8), () -> 80);
    }

    /** The last line written to {@code bytes}, read as JSON. */
    static com.fasterxml.jackson.databind.JsonNode lastLine(java.io.ByteArrayOutputStream bytes) throws java.io.IOException {
        return new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(bytes.toString(StandardCharsets.UTF_8).lines().reduce((a, b) -> b).orElseThrow());
    }

    /** JSON logs into {@code console} until closed, then text logs on standard error as before. */
    static AutoCloseable jsonLogs(io.cloudg.cli.log.ConsoleLine console) {
        io.cloudg.cli.log.LogSetup.apply(io.cloudg.cli.log.LogSetup.Format.json, io.cloudg.cli.log.LogSetup.LogLevel.info, console);
        io.cloudg.cli.log.LogSetup.started();
        return () -> {
            io.cloudg.cli.log.LogSetup.apply(io.cloudg.cli.log.LogSetup.Format.text, io.cloudg.cli.log.LogSetup.LogLevel.info,
                    io.cloudg.cli.log.ConsoleLine.stderr());
            io.cloudg.cli.log.LogSetup.started();
        };
    }

    @Test
    void aLoggedLineComesEveryTenSecondsWhileTheFiguresAreSampledEverySecond() throws Exception {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        io.cloudg.cli.log.ConsoleLine console = into(bytes);
        ManualTimeSource clock = new ManualTimeSource();
        try (AutoCloseable logs = jsonLogs(console);
             Governor g = Governor.builder().time(clock).build();
             Progress log = new Progress(g, console, Progress.Mode.LOG, false)) {
            List<CollectionTask> tasks = estate().subList(0, 2);
            log.planned(tasks, CallEstimates.NONE);
            CollectionTask t = tasks.get(0);
            log.jobStarted(t, t.jobs().get(0));
            for (int second = 1; second <= 25; second++) {
                g.stats().counters(Scope.of("aws", t.accountId(), t.region(), "ec2")).call();
                // the ticker's period and the governor's clock drift apart: a tick may come a little early
                clock.advance(Duration.ofMillis(second % 10 == 0 ? 990 : 1_000));
                log.tick();
            }
            List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines()
                    .filter(l -> l.contains("cloudg.progress")).toList();
            assertThat(lines).as("25 s of ticks a second: a line at 10 s and at 20 s").hasSize(2);
            com.fasterxml.jackson.databind.JsonNode n = new com.fasterxml.jackson.databind.ObjectMapper().readTree(lines.get(1));
            assertThat(n.get("calls").asInt()).isEqualTo(20);
        }
    }

    @Test
    void theShareIsOfTheJobsItFollows() {
        assertThat(Progress.text(652, 17837, new io.cloudg.run.WorkLeft.Snapshot(652, 17837, 0, 0, 0).jobsPercent(), 212.4,
                0, 0, 41023, "3:10")).isEqualTo("[652/17837 jobs (3%)] 212.4 calls/s, 0 throttled, 0 retries, 41023 calls, ETA 3:10");
    }

    /**
     * The lines from 25% of the run on whose ETA is off the time left by more than 25% of it and 1.5 s (the
     * line's whole seconds, the simulation's 10 ms steps).
     */
    static List<String> offByAQuarter(List<Sample> samples) {
        long total = samples.get(samples.size() - 1).atMillis();
        List<String> off = new ArrayList<>();
        for (Sample s : samples.subList(0, samples.size() - 1)) {
            double left = (total - s.atMillis()) / 1000.0;
            if (s.atMillis() < total / 4) {
                continue;
            }
            Matcher m = parse(s);
            double eta = m.group(4) == null ? Double.NaN : Integer.parseInt(m.group(4)) * 60 + Integer.parseInt(m.group(5));
            if (!(Math.abs(eta - left) <= 0.25 * left + 1.5)) {
                off.add(String.format(java.util.Locale.ROOT, "at %.1f s, %.1f s left: %s", s.atMillis() / 1000.0, left, s.line()));
            }
        }
        return off;
    }

    /**
     * A map whose calls are four times slower for its first 12 s, about half of it (the JVM compiling the SDK's
     * code, as in a real map's first minutes: BENCHMARKS.md, "The ETA"): the rate alone overshoots the time left by
     * more than 25% after a quarter of the run; with the previous map's duration (the same estate, the same climb)
     * as the first guess, the ETA is within 25% of the time left from a quarter of the run on.
     */
    @Test
    void aMapThatWarmsUpTakesThePreviousMapsDurationAsItsFirstGuess() throws Exception {
        java.util.function.LongUnaryOperator warmUp = t -> t < 12_000 ? 4 * LATENCY_MS : LATENCY_MS;
        List<CollectionTask> tasks = estate();
        List<Sample> first = play(tasks, prior(tasks), new ManualTimeSource(), warmUp);
        double seconds = first.get(first.size() - 1).atMillis() / 1000.0;
        assertThat(offByAQuarter(first)).as("the rate alone: %s", first).isNotEmpty();

        List<Sample> second = play(tasks, prior(tasks, seconds), new ManualTimeSource(), warmUp);
        assertThat(offByAQuarter(second)).as("with the previous map's %.1f s: %s", seconds, second).isEmpty();
    }

    /**
     * A second map that runs at a steady rate, twice as fast as the previous one did (a machine less loaded): the
     * previous map's duration is no guide, and the ETA follows the rate, within 25% of the time left from a quarter
     * of the run on.
     */
    @Test
    void aMapFasterThanThePreviousOneFollowsItsRate() throws Exception {
        List<CollectionTask> tasks = estate();
        List<Sample> alone = play(tasks, prior(tasks), new ManualTimeSource());
        double seconds = alone.get(alone.size() - 1).atMillis() / 1000.0;
        List<Sample> faster = play(tasks, prior(tasks, 2 * seconds), new ManualTimeSource());
        assertThat(offByAQuarter(faster)).as("the previous map took %.1f s", 2 * seconds).isEmpty();
    }
}
