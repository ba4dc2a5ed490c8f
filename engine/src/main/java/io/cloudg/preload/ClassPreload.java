package io.cloudg.preload;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loads a {@link ClassList} on platform threads, so that virtual-thread jobs started after it never block inside
 * the load of a listed class (see the package's description for the deadlock this prevents).
 *
 * <p>Contract: whatever starts collector jobs on virtual threads MUST call {@link #awaitLoaded()} on
 * {@link #global()} before it starts the first one; {@link #start()} MAY be called earlier (it returns at once)
 * so that the loading overlaps other start-up work. Both are idempotent: the list is loaded once per process,
 * and every later call returns at once. Loading MUST NOT run a static initialiser other than those of
 * {@link PreloadConfig#initPrefixes()} (loading only, {@code Class.forName(name, false, loader)}), and a class
 * that cannot be loaded MUST be skipped, never fail the caller.
 */
public final class ClassPreload {
    private static final Logger LOG = LoggerFactory.getLogger("cloudg.preload");
    /**
     * A safety valve, not a schedule: a preload stuck (say in an initialiser) MUST NOT stop the map for good. Far
     * beyond the slowest preload measured: 30,000 classes without the class-data archive took 117 s on 2 cores
     * shared 15 times over (6 s with the archive).
     */
    static final long AWAIT_BOUND_SECONDS = 300;
    private static final ClassPreload GLOBAL = new ClassPreload(PreloadConfig.fromSystemProperties(),
            ClassPreload.class.getClassLoader());

    private final PreloadConfig config;
    private final ClassLoader loader;
    private final AtomicBoolean started = new AtomicBoolean();
    private final CompletableFuture<PreloadReport> done = new CompletableFuture<>();

    ClassPreload(PreloadConfig config, ClassLoader loader) {
        this.config = config;
        this.loader = loader;
    }

    /** The process's preload, configured by {@link PreloadConfig#fromSystemProperties()}. */
    public static ClassPreload global() {
        return GLOBAL;
    }

    /** Starts loading on a platform thread, once; returns at once. */
    public ClassPreload start() {
        if (started.compareAndSet(false, true)) {
            LOG.debug("preloading classes");
            Thread.ofPlatform().daemon().name("cloudg-preload").start(() -> {
                try {
                    done.complete(run());
                } catch (InterruptedException e) {
                    done.complete(PreloadReport.none("interrupted"));
                } catch (RuntimeException | Error e) {
                    LOG.warn(PreloadProblems.failed(e));
                    done.complete(PreloadReport.none("failed"));
                }
            });
        }
        return this;
    }

    /**
     * Starts the preload if it has not started and waits until it is done (at most {@value #AWAIT_BOUND_SECONDS}
     * s, then the caller goes on with a warning). MUST be called before the first virtual-thread job starts.
     */
    public PreloadReport awaitLoaded() throws InterruptedException {
        start();
        if (!done.isDone()) {
            LOG.debug("the jobs wait for the class preload");
        }
        try {
            return done.get(AWAIT_BOUND_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            LOG.warn(PreloadProblems.stillLoading(AWAIT_BOUND_SECONDS));
            return PreloadReport.none("still loading");
        } catch (ExecutionException e) {
            return PreloadReport.none("failed"); // never: run() completes normally
        }
    }

    /** Whether the preload has ended (loaded, found nothing to load, or failed). */
    public boolean ended() {
        return done.isDone();
    }

    private PreloadReport run() throws InterruptedException {
        if (!config.enabled()) {
            return PreloadReport.none(PreloadConfig.ENABLED_PROPERTY + "=false");
        }
        PreloadReport report;
        if (config.listFile().isPresent()) {
            List<String> lines;
            try {
                lines = Files.readAllLines(config.listFile().get(), StandardCharsets.UTF_8);
            } catch (IOException | RuntimeException e) {
                LOG.warn(PreloadProblems.unreadableList(config.listFile().get(), e));
                return PreloadReport.none("unreadable");
            }
            report = load(ClassList.parse(lines), loader, config, config.listFile().get().toString());
        } else {
            List<String> lines = resourceLines();
            report = lines == null ? PreloadReport.none("none")
                    : load(ClassList.parse(lines), loader, config, PreloadConfig.LIST_RESOURCE);
        }
        LOG.debug("preloaded {} of {} listed classes ({} initialised, {} missing) from {}", report.loaded(),
                report.listed(), report.initialised(), report.missing(), report.source());
        return report;
    }

    private List<String> resourceLines() {
        try (InputStream in = loader.getResourceAsStream(PreloadConfig.LIST_RESOURCE)) {
            if (in == null) {
                return null;
            }
            return new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)).lines().toList();
        } catch (IOException e) {
            LOG.warn(PreloadProblems.failed(e));
            return null;
        }
    }

    /**
     * Loads every class of {@code list} through {@code loader} on {@link PreloadConfig#threads()} platform threads
     * and returns when all are done. The calling thread MAY be a virtual thread (it only waits).
     */
    public static PreloadReport load(ClassList list, ClassLoader loader, PreloadConfig config, String source)
            throws InterruptedException {
        int n = Math.max(1, Math.min(config.threads(), list.size()));
        List<Thread> threads = new ArrayList<>(n);
        PreloadReport[] reports = new PreloadReport[n];
        for (int k = 0; k < n; k++) {
            int slice = k;
            threads.add(Thread.ofPlatform().daemon().name("cloudg-preload-", k).start(
                    () -> reports[slice] = loadSlice(list.slice(slice, n), loader, config, source)));
        }
        PreloadReport total = new PreloadReport(source, 0, 0, 0, 0);
        for (int k = 0; k < n; k++) {
            threads.get(k).join();
            total = total.plus(reports[k]);
        }
        return total;
    }

    private static PreloadReport loadSlice(List<String> names, ClassLoader loader, PreloadConfig config, String source) {
        int loaded = 0;
        int initialised = 0;
        int missing = 0;
        for (String name : names) {
            boolean init = config.initialises(name);
            try {
                Class.forName(name, init, loader);
                loaded++;
                if (init) {
                    initialised++;
                }
            } catch (ClassNotFoundException | LinkageError e) {
                missing++; // not on this class path, or not loadable here: a job meets it as without a preload
            }
        }
        return new PreloadReport(source, names.size(), loaded, initialised, missing);
    }
}
