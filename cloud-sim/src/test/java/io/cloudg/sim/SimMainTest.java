package io.cloudg.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SimMainTest {

    @Test
    void badFlagsAndFilesAreReportedByNameWithExitStatus2(@TempDir Path dir) throws Exception {
        assertThat(runErr("--port", "http")).isEqualTo("cloudg sim: --port: expected a port number from 0 to 65535, got \"http\"");
        assertThat(runErr("--port", "70000")).contains("--port: expected a port number");
        assertThat(runErr("--seed", "x1")).isEqualTo("cloudg sim: --seed: expected an integer, got \"x1\"");
        assertThat(runErr("--estate")).isEqualTo("cloudg sim: --estate: missing value");
        assertThat(runErr("--estate", dir.resolve("none.yaml").toString())).contains("--estate: no such file");
        assertThat(runErr("--frobnicate")).isEqualTo("cloudg sim: unknown option \"--frobnicate\" (see --help)");
        Path estate = Files.writeString(dir.resolve("estate.yaml"), "aws: {accounts: abc}\n");
        assertThat(runErr("--estate", estate.toString()))
            .isEqualTo("cloudg sim: estate.aws.accounts: expected a positive integer, got \"abc\"");
        Path faults = Files.writeString(dir.resolve("faults.yaml"), "faults: [{error: throttle, match: {servce: ec2}}]\n");
        assertThat(runErr("--faults", faults.toString())).startsWith("cloudg sim: faults[0].match.servce: unknown key");
    }

    @Test
    void launchPrintsEndpointsAndCredentials(@TempDir Path dir) throws Exception {
        Path estate = Files.writeString(dir.resolve("estate.yaml"), "seed: 5\naws: {accounts: 2, regions: [us-west-2]}\n");
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        try (CloudSim sim = SimMain.launch(new String[] {"--port", "0", "--estate", estate.toString()},
            new PrintStream(buf, true, StandardCharsets.UTF_8))) {
            String out = buf.toString(StandardCharsets.UTF_8);
            assertThat(sim.seed()).isEqualTo(5);
            assertThat(sim.estate().aws().regions()).containsExactly("us-west-2");
            assertThat(out).contains("aws:   " + sim.awsEndpoint()).contains("AWS_ACCESS_KEY_ID=")
                .contains(sim.estate().aws().management().id());
        }
        SimOptions o = SimMain.parse(new String[] {"--port", "5000", "--seed", "3"});
        assertThat(o.port()).isEqualTo(5000);
        assertThat(o.gcpPort()).isEqualTo(5001);
        assertThat(o.effectiveSeed()).isEqualTo(3);
    }

    @Test
    void examplesArePrintedAndAreValidFiles(@TempDir Path dir) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertThat(SimMain.run(new String[] {"--example", "estate"}, new PrintStream(out, true, StandardCharsets.UTF_8))).isZero();
        Path estate = Files.writeString(dir.resolve("e.yaml"), out.toString(StandardCharsets.UTF_8));
        assertThat(SimMain.parse(new String[] {"--estate", estate.toString()}).estate().aws().accounts()).isEqualTo(4);
        assertThat(runErr("--example", "nope")).contains("--example: expected estate or faults");
    }

    private static String runErr(String... args) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = SimMain.run(args, new PrintStream(new ByteArrayOutputStream()), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(code).isEqualTo(SimMain.USAGE);
        return err.toString(StandardCharsets.UTF_8).trim();
    }
}
