package io.cloudg.fleet.it;

import io.cloudg.fleet.worker.FleetWorker;
import io.cloudg.fleet.worker.WorkerRuntime;
import io.cloudg.resilience.time.TimeSource;
import java.time.Duration;

/** A fleet worker on a thread of the test JVM (the multi-process tests use real worker JVMs instead). */
final class InProcessWorker implements AutoCloseable {
    final WorkerRuntime runtime;
    final Thread thread;

    InProcessWorker(FleetConfig file, String id) {
        this.runtime = WorkerRuntime.open(file.config(), file.fleet().withWorker(file.fleet().worker().withId(id)),
                System::getenv, TimeSource.system());
        this.thread = new Thread(() -> runtime.worker().run(), "worker-" + id);
        thread.setDaemon(true);
        thread.start();
    }

    FleetWorker worker() {
        return runtime.worker();
    }

    /** SIGTERM's path: stop with {@code grace} for in-flight tasks. */
    void stop(Duration grace) {
        runtime.worker().stop(grace);
    }

    @Override
    public void close() {
        stop(Duration.ofSeconds(5));
        try {
            thread.join(30_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        runtime.close();
    }
}
