package io.cloudg.fleet.it;

import io.cloudg.fleet.worker.WorkerRuntime;
import java.nio.file.Path;
import io.cloudg.resilience.time.TimeSource;

/**
 * A worker JVM for the multi-process tests: {@code WorkerProcessMain <cloudg.yaml> <worker-id> <health-port>},
 * the same runtime {@code cloudg worker} runs (the CLI module is not on this module's class path).
 */
public final class WorkerProcessMain {
    private WorkerProcessMain() {
    }

    public static void main(String[] args) {
        FleetConfig f = FleetConfig.load(Path.of(args[0]));
        int status;
        try (WorkerRuntime runtime = WorkerRuntime.open(f.config(), f.fleet().withWorker(f.fleet().worker().withId(args[1])
                .withHealthPort(Integer.parseInt(args[2]))), System::getenv, TimeSource.system())) {
            status = runtime.runUntilStopped();
        }
        System.out.println("worker " + args[1] + " exits with " + status);
        System.exit(status);
    }
}
