package io.cloudg.cli;

import io.cloudg.sim.SimMain;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Unmatched;

/** {@code cloudg sim ...}: serves cloud-sim until stopped (its own flags, see {@code cloudg sim --help}). */
@Command(name = "sim", description = "Runs cloud-sim: local AWS, Azure and GCP APIs with the providers' quotas.",
        mixinStandardHelpOptions = false)
final class SimCommand implements Callable<Integer> {
    /** cloud-sim parses its own options: --port N --gcp-port N --estate FILE --faults FILE --seed S --host H. */
    @Unmatched
    List<String> args = new java.util.ArrayList<>();

    @Override
    public Integer call() {
        return SimMain.run(args.toArray(String[]::new), System.out, System.err);
    }
}
