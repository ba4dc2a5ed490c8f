package io.cloudg.fleet.local;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A real {@code redis-server} run as a process for local fleets: the binary embedded-redis ships (when
 * its jar is on the class path), else {@code redis-server} from the PATH, else the one named by
 * {@code CLOUDG_REDIS_SERVER}. No persistence: the governor's state is soft.
 */
public final class RedisServerProcess implements AutoCloseable {
    private final ChildProcess process;
    private final int port;

    private RedisServerProcess(ChildProcess process, int port) {
        this.process = process;
        this.port = port;
    }

    public static RedisServerProcess start(Path dir, int port, Duration timeout) {
        Path binary = binary(dir);
        List<String> cmd = new ArrayList<>(List.of(binary.toString(), "--port", Integer.toString(port), "--bind",
                "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir.toAbsolutePath().toString()));
        ChildProcess p = ChildProcess.start("redis-server", cmd, dir, dir.resolve("redis.log"));
        p.awaitPort("127.0.0.1", port, timeout);
        return new RedisServerProcess(p, port);
    }

    public String url() {
        return "redis://127.0.0.1:" + port;
    }

    public long pid() {
        return process.pid();
    }

    /** Where the binary is: the environment's, embedded-redis's (copied out of its jar), or the PATH's. */
    static Path binary(Path dir) {
        String env = System.getenv("CLOUDG_REDIS_SERVER");
        if (env != null && !env.isBlank()) {
            return Path.of(env);
        }
        String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
        String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
        String resource = os.contains("linux") ? (arch.contains("aarch64") || arch.contains("arm64")
                ? "redis-server-6.2.7-linux-arm64" : "redis-server-6.2.6-v5-linux-amd64")
                : os.contains("mac") ? (arch.contains("aarch64") ? "redis-server-6.2.6-v5-darwin-arm64"
                : "redis-server-6.2.6-v5-darwin-amd64") : null;
        if (resource != null) {
            try (InputStream in = RedisServerProcess.class.getClassLoader().getResourceAsStream(resource)) {
                if (in != null) {
                    Files.createDirectories(dir);
                    Path out = dir.resolve(resource);
                    Files.copy(in, out, StandardCopyOption.REPLACE_EXISTING);
                    if (!out.toFile().setExecutable(true)) {
                        throw new IOException("cannot make " + out + " executable");
                    }
                    return out;
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot copy out embedded-redis's " + resource + ": " + e.getMessage(), e);
            }
        }
        for (String p : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            Path candidate = Path.of(p, "redis-server");
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException("no redis-server: put embedded-redis on the class path, install redis-server, "
                + "or set CLOUDG_REDIS_SERVER");
    }

    public void stop() {
        process.stop(Duration.ofSeconds(10));
    }

    @Override
    public void close() {
        stop();
    }
}
