package io.cloudg.fleet.local;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;

/**
 * {@code java -cp devkit/target/classes:<devkit/target/fleet-dev.classpath> io.cloudg.fleet.local.DevServices kafka|redis --port N --dir D}:
 * runs a real Kafka broker or Redis server as a child process until this process is stopped (SIGTERM or
 * Ctrl-C stops the child too). {@code scripts/fleet-local.sh} uses it; see {@code docs/fleet.md}.
 */
public final class DevServices {
    private DevServices() {
    }

    public static void main(String[] args) throws InterruptedException {
        if (args.length < 1 || !(args[0].equals("kafka") || args[0].equals("redis"))) {
            System.err.println("usage: DevServices kafka|redis [--port N] [--controller-port N] [--dir DIR]");
            System.exit(2);
        }
        int port = args[0].equals("kafka") ? 9092 : 6379;
        int controller = 0;
        Path dir = Path.of("target", "fleet-" + args[0]);
        for (int i = 1; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--port" -> port = Integer.parseInt(args[i + 1]);
                case "--controller-port" -> controller = Integer.parseInt(args[i + 1]);
                case "--dir" -> dir = Path.of(args[i + 1]);
                default -> {
                    System.err.println("unknown option " + args[i]);
                    System.exit(2);
                }
            }
        }
        AutoCloseable running;
        if (args[0].equals("kafka")) {
            KafkaBrokerProcess k = KafkaBrokerProcess.start(dir, port, controller == 0 ? FreePorts.next() : controller,
                    System.getProperty("java.class.path"), Duration.ofSeconds(120));
            System.out.println("kafka: " + k.bootstrap() + " (pid " + k.pid() + ", data in " + k.dir() + ")");
            running = k;
        } else {
            RedisServerProcess r = RedisServerProcess.start(dir, port, Duration.ofSeconds(30));
            System.out.println("redis: " + r.url() + " (pid " + r.pid() + ")");
            running = r;
        }
        System.out.flush();
        CountDownLatch done = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                running.close();
            } catch (Exception e) {
                System.err.println("stopping: " + e);
            }
            done.countDown();
        }, "dev-services-stop"));
        done.await();
    }
}
