package io.cloudg.fleet.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.common.Uuid;

/**
 * A real single-node Kafka (KRaft: broker and controller in one JVM) run as its own process from the
 * project's own Maven dependencies, for fleet tests and local fleets, no Docker needed. The class path
 * must hold the broker ({@code kafka_2.13}, {@code kafka-server}... as the coordinator module's test
 * class path does). The data stays in {@code dir}, so {@link #restart} brings the same broker back, topics,
 * messages and committed offsets included.
 */
public final class KafkaBrokerProcess implements AutoCloseable {
    private static final List<String> JVM = List.of("-Xms64m", "-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
            "-Djava.awt.headless=true");

    private final Path dir;
    private final int port;
    private final int controllerPort;
    private final String classpath;
    private ChildProcess process;

    private KafkaBrokerProcess(Path dir, int port, int controllerPort, String classpath) {
        this.dir = dir.toAbsolutePath();
        this.port = port;
        this.controllerPort = controllerPort;
        this.classpath = classpath;
    }

    /** Formats {@code dir} (first time only) and starts the broker; returns once it accepts connections. */
    public static KafkaBrokerProcess start(Path dir, int port, int controllerPort, String classpath, Duration timeout) {
        KafkaBrokerProcess k = new KafkaBrokerProcess(dir, port, controllerPort, classpath);
        k.format(timeout);
        k.launch(timeout);
        return k;
    }

    public String bootstrap() {
        return "127.0.0.1:" + port;
    }

    public int port() {
        return port;
    }

    public Path dir() {
        return dir;
    }

    public long pid() {
        return process.pid();
    }

    public boolean alive() {
        return process != null && process.alive();
    }

    private Path properties() {
        return dir.resolve("server.properties");
    }

    private void format(Duration timeout) {
        try {
            Files.createDirectories(dir.resolve("data"));
            Files.writeString(properties(), String.join("\n",
                    "process.roles=broker,controller",
                    "node.id=1",
                    "controller.quorum.bootstrap.servers=127.0.0.1:" + controllerPort,
                    "listeners=PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort,
                    "advertised.listeners=PLAINTEXT://127.0.0.1:" + port,
                    "controller.listener.names=CONTROLLER",
                    "inter.broker.listener.name=PLAINTEXT",
                    "listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT",
                    "log.dirs=" + dir.resolve("data"),
                    "num.partitions=1",
                    "auto.create.topics.enable=false",
                    "offsets.topic.replication.factor=1",
                    "offsets.topic.num.partitions=4",
                    "transaction.state.log.replication.factor=1",
                    "transaction.state.log.min.isr=1",
                    "share.coordinator.state.topic.replication.factor=1",
                    "share.coordinator.state.topic.min.isr=1",
                    "group.initial.rebalance.delay.ms=0",
                    "log.segment.bytes=16777216",
                    "num.network.threads=2",
                    "num.io.threads=2",
                    "background.threads=2",
                    "") + "\n");
            Files.writeString(dir.resolve("logback.xml"), """
                    <configuration>
                      <appender name="OUT" class="ch.qos.logback.core.ConsoleAppender">
                        <encoder><pattern>%d{HH:mm:ss.SSS} %-5level %logger{30} - %msg%n</pattern></encoder>
                      </appender>
                      <root level="WARN"><appender-ref ref="OUT"/></root>
                    </configuration>
                    """);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare " + dir + ": " + e.getMessage(), e);
        }
        if (Files.exists(dir.resolve("data").resolve("meta.properties"))) {
            return;
        }
        ChildProcess fmt = ChildProcess.start("kafka storage format", ChildProcess.java(classpath, jvm(),
                "kafka.tools.StorageTool", List.of("format", "-t", Uuid.randomUuid().toString(), "-c",
                        properties().toString(), "--standalone")), dir, dir.resolve("format.log"));
        Integer status = fmt.waitFor(timeout);
        if (status == null || status != 0) {
            fmt.kill();
            throw new IllegalStateException("formatting Kafka's storage in " + dir + " failed (" + status + "):\n" + fmt.tail(30));
        }
    }

    private List<String> jvm() {
        List<String> j = new java.util.ArrayList<>(JVM);
        j.add("-Dlogback.configurationFile=" + dir.resolve("logback.xml"));
        j.add("-Dkafka.logs.dir=" + dir.resolve("logs"));
        return j;
    }

    private void launch(Duration timeout) {
        process = ChildProcess.start("kafka broker", ChildProcess.java(classpath, jvm(), "kafka.Kafka",
                List.of(properties().toString())), dir, dir.resolve("broker.log"));
        process.awaitPort("127.0.0.1", port, timeout);
    }

    /** SIGTERM (a clean shutdown) and waits. */
    public void stop() {
        if (process != null) {
            process.stop(Duration.ofSeconds(30));
        }
    }

    /** SIGKILL. */
    public void kill() {
        if (process != null) {
            process.kill();
        }
    }

    /** Stops it cleanly and starts it again on the same data and ports. */
    public void restart(Duration timeout) {
        stop();
        launch(timeout);
    }

    /** Starts it again after {@link #stop} or {@link #kill}. */
    public void startAgain(Duration timeout) {
        launch(timeout);
    }

    public String tail(int lines) {
        return process == null ? "" : process.tail(lines);
    }

    @Override
    public void close() {
        stop();
    }
}
