package io.cloudg.sim;

import io.cloudg.sim.aws.AwsCredentials;
import io.cloudg.sim.config.EstateSpec;
import io.cloudg.sim.config.FaultSpec;
import io.cloudg.sim.config.SpecException;
import io.cloudg.sim.estate.Asset;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * {@code cloudg sim --port N [--gcp-port N] [--estate FILE] [--faults FILE] [--seed S] [--host H]}: starts
 * the simulator, prints its endpoints and the management credentials, and serves until SIGINT/SIGTERM.
 * Bad flags and bad files are reported naming the flag, key or value, with exit status 2.
 */
public final class SimMain {
    /** Exit status for bad usage or refused input files. */
    public static final int USAGE = 2;

    private static final String HELP = """
        usage: cloudg sim [--port N] [--gcp-port N] [--estate FILE] [--faults FILE] [--seed S] [--host H]
          --port N       HTTP port for AWS, Azure and /_sim (default 4566; 0 = any free port)
          --gcp-port N   plaintext gRPC port for GCP Cloud Asset (default: HTTP port + 1; 0 = any)
          --estate FILE  estate YAML (default: the built-in demo estate)
          --faults FILE  fault rules YAML (default: none)
          --seed S       seed for ids, fault probabilities and latency jitter (default: the estate's, else 42)
          --host H       interface to bind (default 127.0.0.1)
          --example estate|faults   print a commented example file and exit
        """;

    private SimMain() {
    }

    /** Bad command line. */
    public static final class UsageException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public UsageException(String message) {
            super(message);
        }
    }

    public static void main(String[] args) {
        int code = run(args, System.out, System.err);
        if (code != 0) {
            System.exit(code);
        }
    }

    /** Runs until the JVM is asked to stop; returns the exit status (non-zero only for bad input). */
    public static int run(String[] args, PrintStream out) {
        return run(args, out, System.err);
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--help") || args[i].equals("-h")) {
                out.print(HELP);
                return 0;
            }
            if (args[i].equals("--example")) {
                String which = i + 1 < args.length ? args[i + 1] : "";
                if (!which.equals("estate") && !which.equals("faults")) {
                    err.println("cloudg sim: --example: expected estate or faults, got \"" + which + "\"");
                    return USAGE;
                }
                try (java.io.InputStream in = SimMain.class.getResourceAsStream("examples/" + which + ".yaml")) {
                    out.print(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
                return 0;
            }
        }
        CloudSim sim;
        try {
            sim = launch(args, out);
        } catch (UsageException | SpecException | java.io.UncheckedIOException e) {
            err.println("cloudg sim: " + e.getMessage());
            return USAGE;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            sim.close();
            stopped.countDown();
        }, "cloud-sim-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            sim.close();
        }
        return 0;
    }

    /** Parses, starts and prints the endpoints; the caller owns the returned simulator. */
    public static CloudSim launch(String[] args, PrintStream out) {
        SimOptions options = parse(args);
        CloudSim sim = CloudSim.start(options);
        AwsCredentials c = sim.managementCredentials();
        var aws = sim.estate().aws();
        long shards = (long) aws.accounts().size() * aws.regions().size();
        out.println("cloud-sim " + (shards <= 2_000 ? sim.truth().size() + " assets, " : "")
            + aws.accounts().size() + " AWS accounts x " + aws.regions().size() + " regions, realism "
            + sim.options().estate().realism().id() + ", generation " + sim.generation() + ", seed " + sim.seed());
        out.println("  aws:   " + sim.awsEndpoint() + "   (every service and region; any access key acts as the "
            + "management account " + c.accountId() + ")");
        out.println("  azure: " + sim.azureEndpoint() + "   (ARM + Resource Graph, tenant " + sim.azureTenantId()
            + "; Azure SDK: environment endpoints " + sim.azureSdkEndpoint() + "/, see io.cloudg.sim.azure)");
        out.println("  gcp:   " + sim.gcpTarget() + "   (plaintext gRPC, Cloud Asset v1, organization "
            + sim.estate().gcp().organization() + "; REST: " + sim.gcpRestEndpoint() + "/v1/...)");
        out.println("  truth: " + sim.awsEndpoint() + "/_sim/truth   stats: " + sim.awsEndpoint() + "/_sim/stats   quotas: "
            + sim.awsEndpoint() + "/_sim/quotas");
        out.println("  AWS_ACCESS_KEY_ID=" + c.accessKeyId());
        out.println("  AWS_SECRET_ACCESS_KEY=" + c.secretAccessKey());
        out.println("  AWS_ENDPOINT_URL=" + sim.awsEndpoint());
        out.flush();
        return sim;
    }

    /** The options a command line asks for. */
    public static SimOptions parse(String[] args) {
        SimOptions.Builder b = SimOptions.builder().port(4566);
        Integer gcpPort = null;
        int port = 4566;
        for (int i = 0; i < args.length; i++) {
            String flag = args[i];
            String value = i + 1 < args.length ? args[i + 1] : null;
            switch (flag) {
                case "--port" -> {
                    port = portValue(flag, value);
                    b.port(port);
                }
                case "--gcp-port" -> gcpPort = portValue(flag, value);
                case "--estate" -> b.estate(EstateSpec.load(file(flag, value)));
                case "--faults" -> b.faults(FaultSpec.load(file(flag, value)));
                case "--seed" -> {
                    try {
                        b.seed(Long.parseLong(required(flag, value)));
                    } catch (NumberFormatException e) {
                        throw new UsageException("--seed: expected an integer, got \"" + value + "\"");
                    }
                }
                case "--host" -> b.host(required(flag, value));
                default -> throw new UsageException("unknown option \"" + flag + "\" (see --help)");
            }
            i++;
        }
        b.gcpPort(gcpPort != null ? gcpPort : port == 0 ? 0 : port + 1);
        return b.build();
    }

    private static String required(String flag, String value) {
        if (value == null || value.startsWith("--")) {
            throw new UsageException(flag + ": missing value");
        }
        return value;
    }

    private static int portValue(String flag, String value) {
        String v = required(flag, value);
        try {
            int p = Integer.parseInt(v);
            if (p < 0 || p > 65535) {
                throw new NumberFormatException();
            }
            return p;
        } catch (NumberFormatException e) {
            throw new UsageException(flag + ": expected a port number from 0 to 65535, got \"" + v + "\"");
        }
    }

    private static Path file(String flag, String value) {
        Path p = Path.of(required(flag, value));
        if (!Files.isRegularFile(p)) {
            throw new UsageException(flag + ": no such file \"" + value + "\"");
        }
        return p;
    }
}
