package io.cloudg.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class DistributedMapTest {
    @Test
    void theResumeLineCarriesTheOutputOptionsButNeverAPassword() {
        MapCommand m = new MapCommand();
        m.config = Path.of("/etc/cloudg/cloudg.yaml");
        m.kafka = "kafka:9092";
        m.out = Path.of("/srv/out");
        m.output.keep = 3;
        m.output.postgres = "postgresql://cloudg:s3cret@db.internal:5432/inventory?sslmode=require";
        assertThat(DistributedMap.resumeCommand(m, "r1")).isEqualTo("cloudg map --distributed --resume r1 --config "
                + "/etc/cloudg/cloudg.yaml --kafka kafka:9092 --out /srv/out --postgres "
                + "'postgresql://cloudg@db.internal:5432/inventory?sslmode=require' --keep 3");

        m.output.postgres = "jdbc:postgresql://db.internal/inventory";
        assertThat(DistributedMap.resumeCommand(m, "r1")).contains("--postgres jdbc:postgresql://db.internal/inventory");
    }

    @Test
    void withoutProgressTheCoordinatorsProgressLinesGoButItsOtherNoticesStay() {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        io.cloudg.cli.log.ConsoleLine console = new io.cloudg.cli.log.ConsoleLine(
                () -> new java.io.PrintStream(bytes, true, java.nio.charset.StandardCharsets.UTF_8), () -> 80);
        io.cloudg.cli.log.LogSetup.apply(io.cloudg.cli.log.LogSetup.Format.text, io.cloudg.cli.log.LogSetup.LogLevel.info,
                console);
        try {
            String line = "[10/40 jobs (25%); 2/8 tasks] 3 workers busy, 40.0 calls/s, 40 assets, 1 retried, "
                    + "1 duplicate dropped, ETA 0:10";
            DistributedMap.progress(Progress.Mode.OFF).accept(line);
            DistributedMap.progress(Progress.Mode.OFF).accept("run r-1: published 8 task(s) to cloudg.tasks");
            String off = bytes.toString(java.nio.charset.StandardCharsets.UTF_8);
            assertThat(off).contains("INFO cloudg.progress: run r-1: published 8 task(s)").doesNotContain("jobs (25%)");
            bytes.reset();
            DistributedMap.progress(Progress.Mode.LOG).accept(line);
            assertThat(bytes.toString(java.nio.charset.StandardCharsets.UTF_8)).contains("INFO cloudg.progress: " + line);
        } finally {
            io.cloudg.cli.log.LogSetup.apply(io.cloudg.cli.log.LogSetup.Format.text, io.cloudg.cli.log.LogSetup.LogLevel.info,
                    io.cloudg.cli.log.ConsoleLine.stderr());
            io.cloudg.cli.log.LogSetup.started();
        }
    }
}
