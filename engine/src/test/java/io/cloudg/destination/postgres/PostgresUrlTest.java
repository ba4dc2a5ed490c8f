package io.cloudg.destination.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cloudg.config.ConfigFile;
import io.cloudg.CloudGConfig;
import io.cloudg.resilience.config.ConfigException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PostgresUrlTest {
    @Test
    void aLibpqUrlBecomesAJdbcUrlWithoutCredentials() {
        PostgresUrl u = PostgresUrl.parse("--postgres", "postgresql://cloudg:s%40cr%2Bt@db.internal:5433/inventory?sslmode=require");
        assertThat(u.jdbcUrl()).isEqualTo("jdbc:postgresql://db.internal:5433/inventory?sslmode=require");
        assertThat(u.user()).isEqualTo("cloudg");
        assertThat(u.password()).isEqualTo("s@cr+t");
        assertThat(u.display()).isEqualTo("postgresql://cloudg:***@db.internal:5433/inventory?sslmode=require");
        assertThat(PostgresUrl.parse("k", "postgres://u@h/db").jdbcUrl()).isEqualTo("jdbc:postgresql://h/db");
        assertThat(PostgresUrl.parse("k", "jdbc:postgresql://h/db?user=u&password=p").display())
                .isEqualTo("jdbc:postgresql://h/db?user=u&password=***");
    }

    @Test
    void somethingElseIsRefusedNamingTheSetting() {
        assertThatThrownBy(() -> PostgresUrl.parse("--postgres", "mysql://u:pw@h/db")).isInstanceOf(ConfigException.class)
                .hasMessage("--postgres must be a PostgreSQL URL like postgresql://user@host:5432/db, but was \"mysql://u:***@h/db\"");
        assertThatThrownBy(() -> PostgresUrl.parse("destinations[0].url", "postgresql:///db"))
                .hasMessageStartingWith("destinations[0].url must be");
    }

    @Test
    void thePasswordComesFromTheUrlThenPasswordEnvThenPgpassword() {
        Map<String, String> env = Map.of("PGPASSWORD", "from-pgpassword", "MY_PW", "from-env");
        PostgresSpec inUrl = PostgresSpec.of("--postgres", "postgresql://u:from-url@h/db").withEnv(env::get);
        assertThat(inUrl.password()).isEqualTo("from-url");
        PostgresSpec plain = PostgresSpec.of("--postgres", "postgresql://u@h/db").withEnv(env::get);
        assertThat(plain.password()).isEqualTo("from-pgpassword");
        PostgresSpec named = new PostgresSpec("destinations[0]", plain.url(), "cloudg", "MY_PW", 100, env::get);
        assertThat(named.password()).isEqualTo("from-env");
        PostgresSpec unset = new PostgresSpec("destinations[0]", plain.url(), "cloudg", "NOT_SET", 100, env::get);
        assertThatThrownBy(unset::password).isInstanceOf(ConfigException.class)
                .hasMessage("destinations[0].password_env must be the name of a set environment variable, but was \"NOT_SET\"");
    }

    @Test
    void theConfigurationReadsDestinationsAndKeepRuns() {
        CloudGConfig c = CloudGConfig.from(ConfigFile.fromYaml("""
                keep_runs: 3
                destinations:
                  - {type: postgres, url: "postgresql://u@h:5432/inv", schema: inv_2, password_env: PW, batch_size: 100}
                """));
        assertThat(c.output().keepRuns()).isEqualTo(3);
        assertThat(c.output().destinations()).singleElement().satisfies(d -> {
            assertThat(d.describe()).isEqualTo("postgres postgresql://u@h:5432/inv (schema inv_2)");
            PostgresSpec p = (PostgresSpec) d;
            assertThat(p.batchSize()).isEqualTo(100);
            assertThat(p.passwordEnv()).isEqualTo("PW");
        });
        assertThat(c.warnings()).isEmpty();
        assertThat(CloudGConfig.fromYaml("destinations: [{type: postgres, url: 'postgresql://h/x', colour: red}]").warnings())
                .containsExactly("Unknown config key destinations[0].colour is ignored");
    }

    @Test
    void aBadDestinationIsOneLineNamingTheKey() {
        assertThatThrownBy(() -> CloudGConfig.fromYaml("destinations: [{type: mongo, url: x}]"))
                .hasMessage("destinations[0].type must be one of postgres, but was \"mongo\"");
        assertThatThrownBy(() -> CloudGConfig.fromYaml("destinations: [{type: postgres}]"))
                .hasMessageStartingWith("destinations[0].url must be set");
        assertThatThrownBy(() -> CloudGConfig.fromYaml("destinations: [{type: postgres, url: 'postgresql://h/x', schema: Bad-Name}]"))
                .hasMessage("destinations[0].schema must be a lower-case SQL name like cloudg, but was \"Bad-Name\"");
        assertThatThrownBy(() -> CloudGConfig.fromYaml("destinations: {type: postgres}"))
                .hasMessageStartingWith("destinations must be a list of destinations");
        assertThatThrownBy(() -> CloudGConfig.fromYaml("keep_runs: 0")).hasMessageStartingWith("keep_runs must be an integer >= 1");
    }
}
