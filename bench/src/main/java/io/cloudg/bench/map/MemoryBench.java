package io.cloudg.bench.map;

import io.cloudg.CloudGConfig;
import io.cloudg.map.InventoryMapper;
import io.cloudg.InventoryResult;
import io.cloudg.resilience.Governor;
import io.cloudg.resilience.config.RateLimitConfig;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Memory stays flat as assets grow: maps generated estates of growing size (cloud-sim in a separate JVM,
 * so its estate does not count) and reports the largest live heap during the map — a sampler forces a
 * full collection every second and reads the heap in use right after it — next to the number of assets
 * written.
 *
 * <p>Usage: {@code MemoryBench [full|summary] [perType ...]} (default full, 2 8 32: resources of every AWS type
 * per account x region, over 4 accounts x 2 regions; {@code aws.detail} full keeps each resource's
 * configuration as AWS returned it, summary only identity, tags and derived attributes). Run it with a small fixed heap, e.g. {@code -Xmx256m}: a mapper
 * that kept its assets would need several times more for the largest estate.
 */
public final class MemoryBench {
    private MemoryBench() {
    }

    /** A daemon thread (not started) that forces a full GC every second and keeps the largest heap in use after it in {@code max}. */
    public static Thread heapSampler(AtomicLong max) {
        Thread sampler = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                System.gc();
                max.accumulateAndGet(ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed(), Math::max);
                try {
                    Thread.sleep(1000);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "heap-sampler");
        sampler.setDaemon(true);
        return sampler;
    }

    public static void main(String[] args) throws Exception {
        List<Integer> sizes = new ArrayList<>();
        io.cloudg.config.AwsSettings.Detail detail = io.cloudg.config.AwsSettings.Detail.FULL;
        for (String a : args) {
            if (a.equals("full") || a.equals("summary")) {
                detail = io.cloudg.config.AwsSettings.Detail.valueOf(a.toUpperCase(Locale.ROOT));
            } else {
                sizes.add(Integer.parseInt(a));
            }
        }
        io.cloudg.config.AwsSettings.Detail level = detail;
        if (sizes.isEmpty()) {
            sizes = List.of(2, 8, 32);
        }
        AtomicLong maxAfterGc = new AtomicLong();
        System.out.printf(Locale.ROOT, "max heap (-Xmx): %d MiB, aws.detail: %s%n", Runtime.getRuntime().maxMemory() >> 20,
                detail.key());
        System.out.println("| resources per type | assets mapped | inventory-map.json (MiB) | max live heap during the map (MiB) | elapsed (s) |");
        System.out.println("|---|---|---|---|---|");
        for (int perType : sizes) {
            Path dir = Files.createTempDirectory("cloudg-mem");
            Path estate = dir.resolve("estate.yaml");
            Files.writeString(estate, estateYaml(perType));
            Process sim = startSim(estate);
            try {
                Map<String, String> info = readEndpoints(sim);
                System.gc();
                maxAfterGc.set(0);
                Thread sampler = heapSampler(maxAfterGc);
                sampler.start();
                CloudGConfig config = CloudGConfig.builder().providers("aws").outputDir(dir).jobConcurrency(16)
                        .aws(a -> a.withEndpoint(URI.create(info.get("aws"))).withOrg(true)
                                .withRegions(List.of("us-east-1", "eu-west-1")).withSweeps(false, false)
                                .withCredentials(info.get("key"), info.get("secret")).withDetail(level))
                        .build();
                RateLimitConfig rl = RateLimitConfig.builder().enabled(false).build();
                long t0 = System.nanoTime();
                InventoryResult r = new InventoryMapper(config, Governor.create(rl)).mapInventory();
                double secs = (System.nanoTime() - t0) / 1e9;
                sampler.interrupt();
                sampler.join();
                long size = Files.size(r.mapFile());
                System.out.printf(Locale.ROOT, "| %d | %d | %.1f | %.1f | %.1f |%n", perType, r.assetCount(), size / 1048576.0,
                        maxAfterGc.get() / 1048576.0, secs);
                r.discardSpool();
                Files.deleteIfExists(r.mapFile());
            } finally {
                sim.destroy();
                sim.waitFor();
            }
        }
        System.exit(0);
    }

    static String estateYaml(int perType) {
        return "aws:\n  accounts: 4\n  regions: [us-east-1, eu-west-1]\n  resources:\n"
                + "    AWS::EC2::VPC: " + perType + "\n    AWS::EC2::Subnet: " + perType * 4 + "\n"
                + "    AWS::EC2::Instance: " + perType * 4 + "\n    AWS::EC2::Volume: " + perType * 4 + "\n"
                + "    AWS::EC2::SecurityGroup: " + perType * 2 + "\n    AWS::EC2::NetworkInterface: " + perType * 4 + "\n"
                + "    AWS::EC2::Snapshot: " + perType * 2 + "\n    AWS::Lambda::Function: " + perType * 2 + "\n"
                + "    AWS::DynamoDB::Table: " + perType + "\n    AWS::SQS::Queue: " + perType + "\n"
                + "    AWS::IAM::Role: " + perType * 2 + "\n    AWS::S3::Bucket: " + perType + "\n"
                + "quotas: {enabled: false}\n";
    }

    static Process startSim(Path estate) throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return new ProcessBuilder(java, "-Xmx3g", "-cp", System.getProperty("java.class.path"), "io.cloudg.sim.SimMain",
                "--port", Integer.toString(port), "--gcp-port", "0", "--estate", estate.toString())
                .redirectErrorStream(true).start();
    }

    static Map<String, String> readEndpoints(Process sim) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(sim.getInputStream(), StandardCharsets.UTF_8));
        String aws = null;
        String key = null;
        String secret = null;
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            String t = line.trim();
            if (t.startsWith("aws:")) {
                aws = t.substring(4).trim().split("\\s+")[0];
            } else if (t.startsWith("AWS_ACCESS_KEY_ID=")) {
                key = t.substring(t.indexOf('=') + 1);
            } else if (t.startsWith("AWS_SECRET_ACCESS_KEY=")) {
                secret = t.substring(t.indexOf('=') + 1);
            }
            if (aws != null && key != null && secret != null) {
                Thread drain = new Thread(() -> {
                    try {
                        while (in.readLine() != null) {
                            // keep the pipe from filling up
                        }
                    } catch (java.io.IOException ignored) {
                        // the simulator went away
                    }
                });
                drain.setDaemon(true);
                drain.start();
                return Map.of("aws", aws, "key", key, "secret", secret);
            }
        }
        throw new IllegalStateException("cloud-sim exited before printing its endpoints");
    }
}
