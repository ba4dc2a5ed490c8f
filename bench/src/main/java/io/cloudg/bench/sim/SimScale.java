package io.cloudg.bench.sim;

import io.cloudg.sim.CloudSim;
import io.cloudg.sim.SimOptions;
import io.cloudg.sim.config.EstateSpec;
import io.cloudg.sim.config.Realism;
import io.cloudg.sim.estate.AwsAccount;
import io.cloudg.sim.core.AwsType;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * cloud-sim at organization scale: how long a simulator of {@code accounts x regions} takes to start, its heap
 * after start, after every account x region has been listed, and after the ground truth was served.
 *
 * <pre>
 * java -cp ... io.cloudg.bench.sim.SimScale [--accounts 1000] [--regions 17] [--connections 4] [--realism strict]
 * </pre>
 * The estate is small per account x region (1 VPC, 2 subnets, 1 security group, 1 instance, 1 volume) plus,
 * per account, 1 bucket, 1 IAM user and 1 IAM role, and 100 Azure subscriptions and 100 GCP projects. Quotas
 * are off: this measures the simulator, not the quotas. The sweep assumes the organization role into every
 * member account (STS over raw HTTP), then sends DescribeVpcs and DescribeSubnets in every account x region
 * over keep-alive connections; the ground truth is fetched from {@code /_sim/truth}. Heap figures are
 * {@code used} after two full GCs.
 */
public final class SimScale {
    static final List<String> SEVENTEEN = List.of("us-east-1", "us-east-2", "us-west-1", "us-west-2", "ca-central-1",
        "eu-west-1", "eu-west-2", "eu-west-3", "eu-central-1", "eu-north-1", "ap-south-1", "ap-northeast-1",
        "ap-northeast-2", "ap-northeast-3", "ap-southeast-1", "ap-southeast-2", "sa-east-1");
    private static final Pattern AKID = Pattern.compile("<AccessKeyId>([^<]+)</AccessKeyId>");

    private SimScale() {
    }

    public static void main(String[] args) throws Exception {
        int accounts = 1000;
        int regions = 17;
        int connections = 4;
        Realism realism = Realism.STRICT;
        for (int i = 0; i < args.length; i += 2) {
            String v = i + 1 < args.length ? args[i + 1] : null;
            if (v == null) {
                throw new IllegalArgumentException(args[i] + ": missing value");
            }
            switch (args[i]) {
                case "--accounts" -> accounts = Integer.parseInt(v);
                case "--regions" -> regions = Integer.parseInt(v);
                case "--connections" -> connections = Integer.parseInt(v);
                case "--realism" -> realism = Realism.valueOf(v.toUpperCase(Locale.ROOT));
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        List<String> regionList = SEVENTEEN.subList(0, Math.min(regions, SEVENTEEN.size()));
        Map<AwsType, Integer> counts = new EnumMap<>(AwsType.class);
        counts.put(AwsType.EC2_VPC, 1);
        counts.put(AwsType.EC2_SUBNET, 2);
        counts.put(AwsType.EC2_SECURITY_GROUP, 1);
        counts.put(AwsType.EC2_INSTANCE, 1);
        counts.put(AwsType.EC2_VOLUME, 1);
        counts.put(AwsType.S3_BUCKET, 1);
        counts.put(AwsType.IAM_USER, 1);
        counts.put(AwsType.IAM_ROLE, 1);
        EstateSpec spec = EstateSpec.generated(accounts, regionList, counts).withRealism(realism)
            .withQuotas(io.cloudg.sim.config.QuotaSpec.defaults(realism).withEnforcing(false));
        System.out.printf(Locale.ROOT, "cloud-sim scale: %d accounts x %d regions, realism %s, %d cores, max heap %d MiB%n",
            accounts, regionList.size(), realism.id(), Runtime.getRuntime().availableProcessors(),
            Runtime.getRuntime().maxMemory() >> 20);
        long heap0 = heapAfterGc();
        long t0 = System.nanoTime();
        long cpu0 = cpuNanos();
        try (CloudSim sim = CloudSim.start(SimOptions.builder().estate(spec).seed(1).build())) {
            long startMs = (System.nanoTime() - t0) / 1_000_000;
            long startCpuMs = (cpuNanos() - cpu0) / 1_000_000;
            long heapStarted = heapAfterGc();
            System.out.printf(Locale.ROOT, "started in %d ms wall, %d ms CPU (load average %.1f); heap %d MiB (%d MiB "
                + "before the simulator)%n", startMs, startCpuMs, ManagementFactory.getOperatingSystemMXBean()
                .getSystemLoadAverage(), heapStarted >> 20, heap0 >> 20);

            String host = "127.0.0.1";
            int port = sim.port();
            List<AwsAccount> accts = sim.estate().aws().accounts();
            long t1 = System.nanoTime();
            List<String> keys = new ArrayList<>();
            try (Conn c = new Conn(host, port)) {
                for (AwsAccount a : accts) {
                    keys.add(a.management() ? "AKIABENCHMANAGEMENT1" : c.assume(a.id()));
                }
            }
            long assumeMs = (System.nanoTime() - t1) / 1_000_000;
            AtomicLong requests = new AtomicLong();
            AtomicLong ok = new AtomicLong();
            long t2 = System.nanoTime();
            List<Thread> threads = new ArrayList<>();
            Throwable[] failure = new Throwable[1];
            for (int w = 0; w < connections; w++) {
                int worker = w;
                int n = connections;
                Thread t = new Thread(() -> {
                    try (Conn c = new Conn(host, port)) {
                        for (int i = worker; i < keys.size(); i += n) {
                            for (String r : regionList) {
                                for (String action : List.of("DescribeVpcs", "DescribeSubnets")) {
                                    int status = c.ec2(keys.get(i), r, action);
                                    requests.incrementAndGet();
                                    if (status == 200) {
                                        ok.incrementAndGet();
                                    }
                                }
                            }
                        }
                    } catch (IOException | RuntimeException e) {
                        failure[0] = e;
                    }
                }, "sweep-" + w);
                t.start();
                threads.add(t);
            }
            for (Thread t : threads) {
                t.join();
            }
            if (failure[0] != null) {
                throw new IllegalStateException("sweep failed", failure[0]);
            }
            double sweepS = (System.nanoTime() - t2) / 1e9;
            long heapSwept = heapAfterGc();
            System.out.printf(Locale.ROOT, "sweep: %d AssumeRole in %d ms; %d EC2 listings (%d answered 200) in %.1f s = "
                + "%.0f req/s over %d connections; heap %d MiB%n", keys.size() - 1, assumeMs, requests.get(), ok.get(),
                sweepS, requests.get() / sweepS, connections, heapSwept >> 20);

            long t3 = System.nanoTime();
            HttpResponse<byte[]> truth = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(sim.awsEndpoint() + "/_sim/truth")).build(), HttpResponse.BodyHandlers.ofByteArray());
            long truthMs = (System.nanoTime() - t3) / 1_000_000;
            int jsonMiB = truth.body().length >> 20;
            String tail = new String(truth.body(), truth.body().length - 200, 200, StandardCharsets.UTF_8);
            Matcher m = Pattern.compile("\"counts\":\\{\"assets\":(\\d+)").matcher(tail);
            String assets = m.find() ? m.group(1) : "?";
            truth = null;
            long heapTruth = heapAfterGc();
            System.out.printf(Locale.ROOT, "truth: %s assets, %d MiB of JSON in %d ms; heap %d MiB (the simulator keeps "
                + "the JSON)%n", assets, jsonMiB, truthMs, heapTruth >> 20);
            System.out.printf(Locale.ROOT, "| %d x %d | %s | %d ms (%d ms CPU) | %d MiB | %d MiB | %.0f req/s | %s | %d ms "
                + "| %d MiB |%n", accounts, regionList.size(), realism.id(), startMs, startCpuMs, heapStarted >> 20,
                heapSwept >> 20, requests.get() / sweepS, assets, truthMs, heapTruth >> 20);
        }
    }

    private static long cpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    private static long heapAfterGc() throws InterruptedException {
        for (int i = 0; i < 2; i++) {
            System.gc();
            Thread.sleep(200);
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    /** One keep-alive HTTP/1.1 connection sending requests shaped as the SDK sends them. */
    private static final class Conn implements AutoCloseable {
        private final Socket socket;
        private final OutputStream out;
        private final InputStream in;
        private final String host;
        private final byte[] line = new byte[8192];

        Conn(String host, int port) throws IOException {
            this.host = host + ":" + port;
            this.socket = new Socket(host, port);
            socket.setTcpNoDelay(true);
            this.out = socket.getOutputStream();
            this.in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
        }

        int ec2(String key, String region, String action) throws IOException {
            return post(key, region, "ec2", "Action=" + action + "&Version=2016-11-15&MaxResults=5").status;
        }

        String assume(String account) throws IOException {
            Answer a = post("AKIABENCHMANAGEMENT1", "us-east-1", "sts", "Action=AssumeRole&Version=2011-06-15&RoleArn="
                + "arn%3Aaws%3Aiam%3A%3A" + account + "%3Arole%2FOrganizationAccountAccessRole&RoleSessionName=bench");
            Matcher m = AKID.matcher(a.body);
            if (!m.find()) {
                throw new IllegalStateException("AssumeRole into " + account + " failed: " + a.status + " " + a.body);
            }
            return m.group(1);
        }

        private record Answer(int status, String body) {
        }

        private Answer post(String key, String region, String service, String form) throws IOException {
            byte[] b = form.getBytes(StandardCharsets.UTF_8);
            out.write(("POST / HTTP/1.1\r\nHost: " + host + "\r\nAuthorization: AWS4-HMAC-SHA256 Credential=" + key + "/20250101/"
                + region + "/" + service + "/aws4_request, SignedHeaders=host, Signature=0\r\n"
                + "Content-Type: application/x-www-form-urlencoded; charset=utf-8\r\nContent-Length: " + b.length
                + "\r\n\r\n").getBytes(StandardCharsets.UTF_8));
            out.write(b);
            out.flush();
            int n = readLine();
            int status = Integer.parseInt(new String(line, 9, 3, StandardCharsets.ISO_8859_1));
            int length = 0;
            while ((n = readLine()) > 0) {
                String h = new String(line, 0, n, StandardCharsets.ISO_8859_1);
                if (h.regionMatches(true, 0, "content-length:", 0, 15)) {
                    length = Integer.parseInt(h.substring(15).trim());
                }
            }
            return new Answer(status, new String(in.readNBytes(length), StandardCharsets.UTF_8));
        }

        private int readLine() throws IOException {
            return RawHttpLoad.readLine(in, line);
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
