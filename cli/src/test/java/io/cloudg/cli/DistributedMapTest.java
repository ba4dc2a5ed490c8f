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
}
