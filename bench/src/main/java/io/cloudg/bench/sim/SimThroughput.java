package io.cloudg.bench.sim;

import io.cloudg.sim.CloudSim;
import io.cloudg.sim.SimOptions;
import io.cloudg.sim.SimStats;
import io.cloudg.sim.config.EstateSpec;
import io.cloudg.sim.core.Counters;
import io.cloudg.sim.estate.AwsAccount;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * cloud-sim throughput with quotas on.
 *
 * <pre>
 * java -cp ... io.cloudg.bench.sim.SimThroughput [--accounts 200] [--regions 4] [--connections 16]
 *      [--seconds 20] [--warmup 5] [--scenario spread|hot]
 * </pre>
 * {@code spread}: requests spread over every account, region and operation of a generated estate (each
 * quota bucket sees little load; shows the admission path). {@code hot}: every request to one account and
 * region (most answers are the providers' throttling errors; shows the throttle path).
 */
public final class SimThroughput {
    private static final List<String> ALL_REGIONS = List.of("us-east-1", "us-west-2", "eu-west-1", "ap-southeast-2",
        "eu-central-1", "ap-northeast-1");

    private SimThroughput() {
    }

    public static void main(String[] args) throws Exception {
        int accounts = 200;
        int regions = 4;
        int connections = 16;
        double seconds = 20;
        double warmup = 5;
        String scenario = "spread";
        for (int i = 0; i < args.length; i += 2) {
            String v = i + 1 < args.length ? args[i + 1] : null;
            if (v == null) {
                throw new IllegalArgumentException(args[i] + ": missing value");
            }
            switch (args[i]) {
                case "--accounts" -> accounts = Integer.parseInt(v);
                case "--regions" -> regions = Integer.parseInt(v);
                case "--connections" -> connections = Integer.parseInt(v);
                case "--seconds" -> seconds = Double.parseDouble(v);
                case "--warmup" -> warmup = Double.parseDouble(v);
                case "--scenario" -> scenario = v;
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        List<String> regionList = ALL_REGIONS.subList(0, Math.min(regions, ALL_REGIONS.size()));
        EstateSpec spec = EstateSpec.generated(accounts, regionList, 2);
        try (CloudSim sim = CloudSim.start(SimOptions.builder().estate(spec).seed(1).build())) {
            String host = "127.0.0.1";
            RequestMix mix = new RequestMix(host + ":" + sim.port());
            List<AwsAccount> accts = sim.estate().aws().accounts();
            if (scenario.equals("hot")) {
                mix.addAws("AKIAHOTACCOUNT000001", regionList.get(0));
            } else {
                for (AwsAccount a : accts) {
                    String key = a.management() ? "AKIABENCHMANAGEMENT1" : assume(host, sim.port(), a.id());
                    for (String r : regionList) {
                        mix.addAws(key, r);
                    }
                }
                int n = 0;
                for (var sub : sim.estate().azure().subscriptions()) {
                    mix.addAzure(sub.id(), "bench-principal-" + (n++ % 4));
                }
            }
            System.out.printf(Locale.ROOT, "cloud-sim throughput: scenario=%s accounts=%d regions=%d assets=%d "
                    + "request-templates=%d connections=%d cores=%d quotas=%s%n", scenario, accounts, regionList.size(),
                sim.truth().size(), mix.size(), connections, Runtime.getRuntime().availableProcessors(),
                spec.quotas().enforcing() ? "on" : "off");
            RawHttpLoad load = new RawHttpLoad(host, sim.port(), mix);
            load.run(connections, warmup, 7);
            Counters.Totals before = sim.stats().totals();
            RawHttpLoad.Result r = load.run(connections, seconds, 11);
            SimStats after = sim.stats();
            Counters.Totals t = after.totals();
            long calls = t.calls() - before.calls();
            long throttled = t.throttled() - before.throttled();
            long admitted = t.admitted() - before.admitted();
            System.out.printf(Locale.ROOT, "measured %.1f s: %d requests = %.0f req/s; latency p50 %d us, p99 %d us, "
                    + "max %d us%n", r.seconds(), r.requests(), r.perSecond(), r.p50Micros(), r.p99Micros(), r.maxMicros());
            System.out.printf(Locale.ROOT, "sim: %d calls through the quota gate, %d admitted, %d throttled; %d buckets%n",
                calls, admitted, throttled, after.buckets().size());
            long over = after.buckets().stream()
                .filter(b -> b.maxAdmittedPerSecond() > b.rate() + b.burst()).count();
            long busiest = after.buckets().stream().mapToLong(b -> b.maxAdmittedPerSecond()).max().orElse(0);
            System.out.printf(Locale.ROOT, "buckets over rate x 1 s + burst in any 1-second window: %d of %d "
                + "(busiest bucket admitted %d in its busiest second)%n", over, after.buckets().size(), busiest);
            StringBuilder codes = new StringBuilder();
            for (int i = 0; i < r.byStatus().length; i++) {
                if (r.byStatus()[i] > 0) {
                    codes.append(codes.length() == 0 ? "" : ", ").append(i).append(": ").append(r.byStatus()[i]);
                }
            }
            System.out.println("HTTP statuses: " + codes);
            System.out.printf(Locale.ROOT, "| %s | %d x %d | %d | %.0f | %d / %d | %.1f%% |%n", scenario, accounts,
                regionList.size(), connections, r.perSecond(), r.p50Micros(), r.p99Micros(),
                calls == 0 ? 0.0 : 100.0 * throttled / calls);
        }
    }

    private static final Pattern AKID = Pattern.compile("<AccessKeyId>([^<]+)</AccessKeyId>");

    /** STS AssumeRole over raw HTTP, retried while STS throttles the setup burst. */
    private static String assume(String host, int port, String account) throws IOException, InterruptedException {
        String body = "Action=AssumeRole&Version=2011-06-15&RoleArn=arn%3Aaws%3Aiam%3A%3A" + account
            + "%3Arole%2FOrganizationAccountAccessRole&RoleSessionName=bench";
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        String req = "POST / HTTP/1.1\r\nHost: " + host + ":" + port + "\r\nAuthorization: AWS4-HMAC-SHA256 "
            + "Credential=AKIABENCHMANAGEMENT1/20250101/us-east-1/sts/aws4_request, SignedHeaders=host, Signature=0\r\n"
            + "Content-Type: application/x-www-form-urlencoded; charset=utf-8\r\nContent-Length: " + b.length
            + "\r\nConnection: close\r\n\r\n" + body;
        for (int attempt = 0; attempt < 50; attempt++) {
            try (Socket s = new Socket(host, port)) {
                OutputStream out = s.getOutputStream();
                out.write(req.getBytes(StandardCharsets.UTF_8));
                out.flush();
                InputStream in = s.getInputStream();
                String resp = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                Matcher m = AKID.matcher(resp);
                if (m.find()) {
                    return m.group(1);
                }
                if (!resp.contains("Throttling")) {
                    throw new IllegalStateException("AssumeRole into " + account + " failed: " + resp);
                }
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("AssumeRole into " + account + " kept being throttled");
    }
}
