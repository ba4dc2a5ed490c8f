package io.cloudg.bench.sim;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;

/**
 * Closed-loop load: {@code connections} threads, each with one keep-alive connection, send a random request
 * of the mix, read the whole answer, repeat. Latencies go to per-thread histograms in microseconds.
 */
final class RawHttpLoad {
    /** Time, in one place. */
    static long nanos() {
        return System.nanoTime();
    }

    /** What one phase measured. */
    record Result(long requests, long[] byStatus, double seconds, long p50Micros, long p99Micros, long maxMicros) {
        double perSecond() {
            return requests / seconds;
        }
    }

    private static final int HIST = 1 << 17;

    private final String host;
    private final int port;
    private final RequestMix mix;

    RawHttpLoad(String host, int port, RequestMix mix) {
        this.host = host;
        this.port = port;
        this.mix = mix;
    }

    Result run(int connections, double seconds, long seed) throws InterruptedException {
        List<Worker> workers = new ArrayList<>();
        CountDownLatch done = new CountDownLatch(connections);
        long start = nanos();
        long deadline = start + (long) (seconds * 1e9);
        for (int i = 0; i < connections; i++) {
            Worker w = new Worker(seed * 1000 + i, deadline, done);
            workers.add(w);
            Thread t = new Thread(w, "load-" + i);
            t.setDaemon(true);
            t.start();
        }
        done.await();
        double elapsed = (nanos() - start) / 1e9;
        long total = 0;
        long[] status = new long[600];
        long[] hist = new long[HIST + 1];
        long max = 0;
        for (Worker w : workers) {
            if (w.failure != null) {
                throw new IllegalStateException("load worker failed", w.failure);
            }
            total += w.count;
            for (int i = 0; i < status.length; i++) {
                status[i] += w.status[i];
            }
            for (int i = 0; i < hist.length; i++) {
                hist[i] += w.hist[i];
            }
            max = Math.max(max, w.max);
        }
        return new Result(total, status, elapsed, percentile(hist, total, 0.50), percentile(hist, total, 0.99), max);
    }

    private static long percentile(long[] hist, long total, double q) {
        long want = (long) Math.ceil(total * q);
        long seen = 0;
        for (int i = 0; i < hist.length; i++) {
            seen += hist[i];
            if (seen >= want) {
                return i;
            }
        }
        return hist.length;
    }

    private final class Worker implements Runnable {
        private final SplittableRandom random;
        private final long deadline;
        private final CountDownLatch done;
        final long[] status = new long[600];
        final long[] hist = new long[HIST + 1];
        long count;
        long max;
        Throwable failure;

        Worker(long seed, long deadline, CountDownLatch done) {
            this.random = new SplittableRandom(seed);
            this.deadline = deadline;
            this.done = done;
        }

        @Override
        public void run() {
            try (Socket s = new Socket(host, port)) {
                s.setTcpNoDelay(true);
                OutputStream out = s.getOutputStream();
                InputStream in = new BufferedInputStream(s.getInputStream(), 1 << 16);
                List<byte[]> reqs = mix.requests();
                byte[] line = new byte[8192];
                while (true) {
                    long t0 = nanos();
                    if (t0 >= deadline) {
                        break;
                    }
                    out.write(reqs.get(random.nextInt(reqs.size())));
                    out.flush();
                    int code = readResponse(in, line);
                    long micros = (nanos() - t0) / 1000;
                    hist[(int) Math.min(micros, HIST)]++;
                    max = Math.max(max, micros);
                    status[code]++;
                    count++;
                }
            } catch (IOException | RuntimeException e) {
                failure = e;
            } finally {
                done.countDown();
            }
        }
    }

    /** Reads one response; returns its status code. */
    static int readResponse(InputStream in, byte[] buf) throws IOException {
        int n = readLine(in, buf);
        String statusLine = new String(buf, 0, n, java.nio.charset.StandardCharsets.ISO_8859_1);
        int code = Integer.parseInt(statusLine.substring(9, 12));
        long length = 0;
        while (true) {
            n = readLine(in, buf);
            if (n == 0) {
                break;
            }
            if (n > 15 && (buf[0] == 'c' || buf[0] == 'C')) {
                String h = new String(buf, 0, n, java.nio.charset.StandardCharsets.ISO_8859_1);
                if (h.regionMatches(true, 0, "content-length:", 0, 15)) {
                    length = Long.parseLong(h.substring(15).trim());
                }
            }
        }
        while (length > 0) {
            long skipped = in.skip(length);
            if (skipped <= 0) {
                if (in.read() < 0) {
                    throw new UncheckedIOException(new IOException("connection closed mid-body"));
                }
                skipped = 1;
            }
            length -= skipped;
        }
        return code;
    }

    /** Reads one header line into {@code buf} (without the line end); returns its length. */
    static int readLine(InputStream in, byte[] buf) throws IOException {
        int n = 0;
        while (true) {
            int c = in.read();
            if (c < 0) {
                throw new IOException("connection closed");
            }
            if (c == '\n') {
                return n > 0 && buf[n - 1] == '\r' ? n - 1 : n;
            }
            if (n < buf.length) {
                buf[n++] = (byte) c;
            }
        }
    }
}
