package io.cloudg.cli;

import io.cloudg.config.StartupException;
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
    public Integer call() throws Exception {
        io.cloudg.cli.log.LogSetup.started(); // the simulator reports its own start on stdout, and runs until stopped
        try {
            int code = SimMain.run(args.toArray(String[]::new), System.out, System.err);
            return code == 0 ? ExitCodes.OK : ExitCodes.CANNOT_START;
        } catch (Exception e) { // the sim's server may throw its BindException unwrapped
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof java.net.BindException) {
                    throw new StartupException("cloud-sim cannot listen on port " + flag("--port", "4566")
                            + " (or --gcp-port " + flag("--gcp-port", "its default") + "): " + t.getMessage()
                            + "; pass another --port, or 0 for any free one", e);
                }
            }
            throw e;
        }
    }

    private String flag(String name, String dflt) {
        int i = args.indexOf(name);
        return i >= 0 && i + 1 < args.size() ? args.get(i + 1) : dflt;
    }
}
