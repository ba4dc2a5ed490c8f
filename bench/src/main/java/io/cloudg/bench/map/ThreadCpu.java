package io.cloudg.bench.map;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * A JVM's CPU by thread, from Linux's {@code /proc/PID/task/TID/stat} (user + system ticks) and {@code comm}
 * (the thread's name as the JVM gave it to the kernel, cut to 15 characters), grouped by what the thread is:
 * the JIT compilers, the garbage collector, Kafka's and Redisson's network threads, cloudg's collector
 * threads. JFR samples Java frames only; this also counts the JVM's own threads.
 *
 * <p>A {@link Tracker} reads a process every 200 ms while it runs and keeps each thread's last reading, so a
 * thread that ends still counts (less at most its last 200 ms); what no reading saw is left as
 * "(not seen: threads that ended between readings)" when the process's total is known.
 *
 * <p>{@code java -cp ... io.cloudg.bench.map.ThreadCpu PID} prints one process's table now.
 */
public final class ThreadCpu {
    /** Clock ticks per second of {@code /proc}'s times ({@code getconf CLK_TCK}: 100 on Linux). */
    static final double TICKS = 100.0;

    private ThreadCpu() {
    }

    /** One thread: its name, its user + system ticks so far, and of them the system ticks. */
    public record Thread(String name, long ticks, long systemTicks) {
    }

    /** The suffix of a group's key that holds the system part of its CPU (see {@link #grouped}). */
    public static final String SYSTEM = " [system]";

    /** Every thread of {@code pid} now, by thread id; empty once the process is gone. */
    public static Map<Long, Thread> read(long pid) {
        Map<Long, Thread> threads = new HashMap<>();
        Path tasks = Path.of("/proc", Long.toString(pid), "task");
        try (Stream<Path> s = Files.list(tasks)) {
            for (Path t : s.toList()) {
                try {
                    String stat = Files.readString(t.resolve("stat"));
                    threads.put(Long.parseLong(t.getFileName().toString()),
                            new Thread(Files.readString(t.resolve("comm")).trim(), ticks(stat), systemTicks(stat)));
                } catch (IOException | RuntimeException e) {
                    // the thread ended while being read
                }
            }
        } catch (IOException | RuntimeException e) {
            // the process ended
        }
        return threads;
    }

    /** The whole process's user + system ticks so far (ended threads included), or -1 once it is gone. */
    public static long processTicks(long pid) {
        try {
            return ticks(Files.readString(Path.of("/proc", Long.toString(pid), "stat")));
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** utime + stime of a {@code stat} line (fields 14 and 15, counted after the parenthesised name). */
    static long ticks(String stat) {
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }

    /** stime of a {@code stat} line (field 15). */
    static long systemTicks(String stat) {
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
        return Long.parseLong(f[12]);
    }

    /** What a thread is, from its (15-character) name. */
    public static String group(String comm) {
        if (comm.startsWith("C2 CompilerThre")) {
            return "JIT: C2 compiler threads";
        }
        if (comm.startsWith("C1 CompilerThre")) {
            return "JIT: C1 compiler threads";
        }
        if (comm.startsWith("GC Thread") || comm.startsWith("G1 ") || comm.startsWith("GC ")) {
            return "GC threads";
        }
        if (comm.equals("VM Thread") || comm.startsWith("VM Periodic")) {
            return "VM thread, periodic task";
        }
        if (comm.startsWith("cloudg-fleet-jo")) {
            return "collector jobs (cloudg-fleet-job)";
        }
        if (comm.startsWith("cloudg-worker")) {
            return "collector jobs (cloudg-worker)";
        }
        if (comm.startsWith("cloudg-aws-item")) {
            return "per-item calls (cloudg-aws-item-N)";
        }
        if (comm.startsWith("kafka-producer")) {
            return "Kafka producer network thread";
        }
        if (comm.startsWith("kafka-coordinat")) {
            return "Kafka consumer heartbeat thread";
        }
        if (comm.startsWith("redisson-netty")) {
            return "Redisson netty event loops";
        }
        if (comm.startsWith("redisson")) {
            return "Redisson other";
        }
        if (comm.equals("main") || comm.equals("java")) {
            return "main (" + comm + ")";
        }
        // other names without their running numbers (pool-3-thread-7, Thread-12, sdk-async-response-0-4)
        return comm.replaceAll("[-#]?\\d+([-#]\\d+)*$", "").replaceAll("\\d+", "N");
    }

    /**
     * Seconds of CPU per group, the biggest first; each group's system part under its name + {@link #SYSTEM}
     * (not counted again in totals).
     */
    public static Map<String, Double> grouped(Map<Long, Thread> now, Map<Long, Thread> before) {
        Map<String, Double> seconds = new HashMap<>();
        for (Map.Entry<Long, Thread> e : now.entrySet()) {
            Thread b = before.get(e.getKey());
            long d = e.getValue().ticks() - (b == null ? 0 : b.ticks());
            long sys = e.getValue().systemTicks() - (b == null ? 0 : b.systemTicks());
            if (d > 0) {
                String g = group(e.getValue().name());
                seconds.merge(g, d / TICKS, Double::sum);
                seconds.merge(g + SYSTEM, Math.max(0, sys) / TICKS, Double::sum);
            }
        }
        return sorted(seconds);
    }

    /** Groups the biggest first, then the system parts. */
    public static Map<String, Double> sorted(Map<String, Double> seconds) {
        Map<String, Double> out = new LinkedHashMap<>();
        seconds.entrySet().stream().filter(e -> !e.getKey().endsWith(SYSTEM))
                .sorted(Map.Entry.<String, Double>comparingByValue().reversed())
                .forEach(e -> out.put(e.getKey(), e.getValue()));
        seconds.entrySet().stream().filter(e -> e.getKey().endsWith(SYSTEM)).forEach(e -> out.put(e.getKey(), e.getValue()));
        return out;
    }

    static double total(Map<String, Double> groups) {
        return groups.entrySet().stream().filter(e -> !e.getKey().endsWith(SYSTEM)).mapToDouble(Map.Entry::getValue).sum();
    }

    /**
     * A table of processes' groups side by side: a row per group (in the first column's order), seconds and
     * the share of that column's total.
     */
    public static String table(Map<String, Map<String, Double>> columns) {
        List<String> rows = new ArrayList<>();
        for (Map<String, Double> c : columns.values()) {
            for (String g : c.keySet()) {
                if (!g.endsWith(SYSTEM) && !rows.contains(g)) {
                    rows.add(g);
                }
            }
        }
        StringBuilder sb = new StringBuilder("| thread group |");
        columns.keySet().forEach(k -> sb.append(' ').append(k).append(": CPU (s) | of it system | share |"));
        sb.append("\n|---|");
        columns.keySet().forEach(k -> sb.append("---|---|---|"));
        sb.append('\n');
        for (String g : rows) {
            sb.append("| ").append(g).append(" |");
            for (Map<String, Double> c : columns.values()) {
                double total = total(c);
                double v = c.getOrDefault(g, 0.0);
                Double sys = c.get(g + SYSTEM);
                sb.append(String.format(Locale.ROOT, " %.2f | %s | %.1f%% |", v,
                        sys == null ? "" : String.format(Locale.ROOT, "%.2f", sys), total > 0 ? 100 * v / total : 0));
            }
            sb.append('\n');
        }
        sb.append("| total |");
        for (Map<String, Double> c : columns.values()) {
            double sys = c.entrySet().stream().filter(e -> e.getKey().endsWith(SYSTEM)).mapToDouble(Map.Entry::getValue).sum();
            sb.append(String.format(Locale.ROOT, " %.2f | %.2f | 100%% |", total(c), sys));
        }
        return sb.append('\n').toString();
    }

    /**
     * Reads a process every 200 ms from a background thread until closed, keeping each thread's first and
     * last reading. {@code pid} is asked on each round until it names a process (e.g. a child JVM not yet
     * started). With {@code fromStart}, a thread's CPU counts from 0 (a process followed from its start);
     * otherwise from the tracker's first reading of it (threads that exist already) or 0 (threads born since).
     */
    public static final class Tracker implements AutoCloseable {
        private final Supplier<OptionalLong> pid;
        private final boolean fromStart;
        private final Map<Long, Thread> first = new HashMap<>();
        private final Map<Long, Thread> last = new HashMap<>();
        private final java.lang.Thread reader;
        private volatile boolean stop;
        private long firstTotal = -1;
        private long lastTotal = -1;
        private boolean started;

        public Tracker(Supplier<OptionalLong> pid, boolean fromStart) {
            this.pid = pid;
            this.fromStart = fromStart;
            this.reader = new java.lang.Thread(this::loop, "thread-cpu-tracker");
            this.reader.setDaemon(true);
            this.reader.start();
        }

        private void loop() {
            while (!stop) {
                sample();
                try {
                    java.lang.Thread.sleep(200);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        private synchronized void sample() {
            OptionalLong p = pid.get();
            if (p.isEmpty()) {
                return;
            }
            long total = processTicks(p.getAsLong());
            Map<Long, Thread> now = read(p.getAsLong());
            if (now.isEmpty()) {
                return;
            }
            if (!started) {
                started = true;
                firstTotal = fromStart ? 0 : total;
                if (!fromStart) {
                    first.putAll(now);
                }
            }
            last.putAll(now);
            if (total >= 0) {
                lastTotal = total;
            }
        }

        /**
         * Stops reading (after one last reading) and returns seconds per group; {@code totalSeconds}, when
         * not negative, is the process's own total (e.g. bash's {@code time} of a process that has ended):
         * what no reading saw is its own row.
         */
        public Map<String, Double> finish(double totalSeconds) {
            stop = true;
            reader.interrupt();
            try {
                reader.join(5000);
            } catch (InterruptedException e) {
                java.lang.Thread.currentThread().interrupt();
            }
            sample();
            synchronized (this) {
                Map<String, Double> g = new TreeMap<>(grouped(last, first));
                double seen = total(g);
                double total = totalSeconds >= 0 ? totalSeconds
                        : lastTotal >= 0 && firstTotal >= 0 ? (lastTotal - firstTotal) / TICKS : -1;
                if (total >= 0 && total - seen > 0.005) {
                    g.put("(not seen: threads that ended between readings)", total - seen);
                }
                return sorted(g);
            }
        }

        @Override
        public void close() {
            finish(-1);
        }
    }

    /** The newest descendant of {@code root} whose command is {@code java}, if one runs. */
    public static OptionalLong javaDescendant(ProcessHandle root) {
        return root.descendants().filter(h -> h.info().command().map(c -> c.endsWith("/java")).orElse(false))
                .mapToLong(ProcessHandle::pid).max();
    }

    public static void main(String[] args) {
        Map<String, Map<String, Double>> columns = new LinkedHashMap<>();
        for (String a : args) {
            columns.put("pid " + a, grouped(read(Long.parseLong(a)), Map.of()));
        }
        System.out.print(table(columns));
    }
}
