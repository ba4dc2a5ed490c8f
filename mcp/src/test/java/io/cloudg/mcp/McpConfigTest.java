package io.cloudg.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cloudg.config.ConfigFile;
import io.cloudg.mcp.config.McpSettings;
import io.cloudg.mcp.guard.Principal;
import io.cloudg.mcp.guard.Role;
import io.cloudg.resilience.config.ConfigException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The {@code mcp} block of the cloudg YAML, and the principals built from it. */
class McpConfigTest {
    static final String FULL = """
            output_dir: /tmp/out
            mcp:
              dataset_dir: /var/lib/cloudg/datasets
              http: {host: 0.0.0.0, port: 9000, path: /agents/mcp}
              stdio_principal: alice
              principals:
                alice: {roles: [admin]}
                ci-bot: {roles: [operator, viewer], token_env: CI_TOKEN}
                grafana: {roles: [viewer], token: s3cr3t-viewer-token}
            """;

    @Test
    void theBlockLoadsEveryKey() {
        McpSettings m = mcp(FULL);
        assertThat(m.datasetDir()).isEqualTo(Path.of("/var/lib/cloudg/datasets"));
        assertThat(m.httpHost()).isEqualTo("0.0.0.0");
        assertThat(m.httpPort()).isEqualTo(9000);
        assertThat(m.httpPath()).isEqualTo("/agents/mcp");
        assertThat(m.stdioPrincipal()).isEqualTo("alice");
        assertThat(m.principals()).extracting(McpSettings.PrincipalSpec::name).containsExactly("alice", "ci-bot", "grafana");
        assertThat(m.principal("ci-bot").orElseThrow().tokenEnv()).isEqualTo("CI_TOKEN");
        assertThat(m.toString()).as("never prints a token").doesNotContain("s3cr3t");
        McpSettings d = mcp("providers: [aws]");
        assertThat(d).isEqualTo(McpSettings.DEFAULTS);
        assertThat(d.httpPort()).isEqualTo(8765);
    }

    @Test
    void unknownKeysWarnAndAreIgnored() {
        ConfigFile c = ConfigFile.fromYaml("""
                mcp:
                  datasets: /x
                  http: {prot: 1}
                  principals:
                    alice: {roles: [admin], colour: blue}
                """);
        McpSettings.from(c);
        assertThat(c.warnings()).containsExactly("Unknown config key mcp.datasets is ignored",
                "Unknown config key mcp.http.prot is ignored", "Unknown config key mcp.principals.alice.colour is ignored");
    }

    @Test
    void wrongValuesFailNamingTheKeyAndTheValue() {
        Map<String, String> cases = Map.of(
                "mcp: {principals: {alice: {roles: [superuser]}}}",
                "mcp.principals.alice.roles entry must be one of admin, operator, viewer, but was \"superuser\"",
                "mcp: {principals: {alice: {token: x}}}",
                "mcp.principals.alice.roles must be a non-empty list of admin, operator, viewer, but was \"(none)\"",
                "mcp: {http: {port: 70000}}", "mcp.http.port must be an integer from 0 to 65535, but was 70000",
                "mcp: {http: {path: mcp}}", "mcp.http.path must be a path starting with / like /mcp, but was \"mcp\"",
                "mcp: {principals: {alice: {roles: [admin], token: a, token_env: B}}}",
                "mcp.principals.alice.token_env must be unset when mcp.principals.alice.token is set, but was \"B\"",
                "mcp: {principals: {a: {roles: [admin], token: same}, b: {roles: [viewer], token: same}}}",
                "mcp.principals.b.token must be different from the token of a, but was \"(the same token)\"",
                "mcp: {stdio_principal: bob, principals: {alice: {roles: [admin]}}}",
                "mcp.stdio_principal must be one of the mcp.principals (alice), but was \"bob\"",
                "mcp: {principals: {alice: admin}}",
                "mcp.principals.alice must be a mapping with roles (and token or token_env), but was \"admin\"",
                "mcp: {principals: {\"al ice\": {roles: [admin]}}}",
                "mcp.principals must be names of 1-64 characters of [A-Za-z0-9._@-], but was \"al ice\"",
                "mcp: {principals: {bot: {roles: [viewer], token: t, max_calls_per_minute: 0}}}",
                "mcp.principals.bot.max_calls_per_minute must be an integer >= 1, but was 0");
        cases = new java.util.HashMap<>(cases);
        cases.putAll(Map.of("mcp: {live_roles: [admin, root]}",
                "mcp.live_roles entry must be one of admin, operator, viewer, but was \"root\"",
                "mcp: {live_roles: {admin: true}}", "mcp.live_roles must be a list of strings, but was {\"admin\":true}",
                "mcp: {principals: {bot: {roles: [viewer], live_tools: yes please}}}",
                "mcp.principals.bot.live_tools must be true or false, but was \"yes please\""));
        cases.forEach((yaml, message) -> assertThatThrownBy(() -> mcp(yaml)).as(yaml)
                .isInstanceOf(ConfigException.class).hasMessage(message));
    }

    @Test
    void principalsResolveTokensFromTheEnvironmentAndNeverMatchAWrongOne() {
        McpSettings m = mcp(FULL);
        Principals p = Principals.from(m, Map.of("CI_TOKEN", "from-env")::get);
        assertThat(p.byToken("from-env")).map(Principal::name).hasValue("ci-bot");
        assertThat(p.byToken("from-env").orElseThrow().roles()).containsExactlyInAnyOrder(Role.OPERATOR, Role.VIEWER);
        assertThat(p.byToken("s3cr3t-viewer-token")).map(Principal::mayForce).hasValue(false);
        assertThat(p.byToken("s3cr3t-viewer-token ")).isEmpty();
        assertThat(p.byToken("")).isEmpty();
        assertThat(p.stdio("whoever").name()).as("mcp.stdio_principal wins over the OS user").isEqualTo("alice");
        Principals unset = Principals.from(m, k -> null);
        assertThat(unset.stdio("whoever").name()).as("a stdio session needs no token").isEqualTo("alice");
        assertThatThrownBy(unset::requireTokens).as("an HTTP server does").isInstanceOf(ConfigException.class)
                .hasMessage("mcp.principals.ci-bot.token_env: names CI_TOKEN, which is not set in the environment");
        Principal anyone = Principals.from(McpSettings.DEFAULTS, k -> null).stdio("bob");
        assertThat(anyone.name()).as("no principals configured: the OS user").isEqualTo("bob");
        assertThat(anyone.roles()).as("as an operator").containsExactly(Role.OPERATOR);
        Principals noStdio = Principals.from(m.withStdioPrincipal(null), k -> "t");
        assertThatThrownBy(() -> noStdio.stdio("bob")).isInstanceOf(ConfigException.class)
                .hasMessageContaining("the stdio user \"bob\" is not among mcp.principals (alice, ci-bot, grafana)");
        assertThat(List.of(Role.values())).filteredOn(Role::mayForce).containsExactly(Role.ADMIN, Role.OPERATOR);
    }

    @Test
    void liveToolsNeedALiveRoleUnlessThePrincipalSaysOtherwise() {
        McpSettings d = mcp(FULL);
        assertThat(d.liveRoles()).as("the default").containsExactly("admin", "operator");
        Principals p = Principals.from(d, Map.of("CI_TOKEN", "from-env")::get);
        assertThat(p.mayRunLive(p.byToken("from-env").orElseThrow())).as("operator").isTrue();
        assertThat(p.mayRunLive(p.byToken("s3cr3t-viewer-token").orElseThrow())).as("viewer").isFalse();
        assertThat(p.mayRunLive(p.stdio("whoever"))).as("admin").isTrue();
        assertThat(p.mayRunLive(Principals.from(McpSettings.DEFAULTS, k -> null).stdio("bob")))
                .as("the OS user of an unconfigured stdio server is an operator").isTrue();

        McpSettings m = mcp("""
                mcp:
                  live_roles: [admin]
                  principals:
                    ops: {roles: [operator], token: ops-token-0123456789}
                    auditor: {roles: [viewer], token: auditor-token-0123456789, live_tools: true}
                    boss: {roles: [admin], token: boss-token-0123456789, live_tools: false}
                """);
        assertThat(m.principal("auditor").orElseThrow().liveTools()).isTrue();
        assertThat(m.principal("auditor").orElseThrow().toString()).isEqualTo("auditor[viewer] (token) (live tools)");
        Principals q = Principals.from(m, k -> null);
        assertThat(q.mayRunLive(q.byToken("ops-token-0123456789").orElseThrow())).isFalse();
        assertThat(q.mayRunLive(q.byToken("auditor-token-0123456789").orElseThrow())).isTrue();
        assertThat(q.mayRunLive(q.byToken("boss-token-0123456789").orElseThrow())).isFalse();
        assertThat(mcp("mcp: {live_roles: []}").liveRoles()).as("nobody by role").isEmpty();
    }

    @Test
    void beyondLoopbackEveryTokenMustBeAtLeast16Characters() {
        McpSettings m = mcp("""
                mcp:
                  principals:
                    ok: {roles: [operator], token: a-token-of-24-characters}
                    short: {roles: [viewer], token: 15-characters!!}
                """);
        Principals p = Principals.from(m, k -> null);
        assertThat(p.requireHttp("127.0.0.1")).as("loopback: not exposed, any token").isFalse();
        assertThat(p.requireHttp("localhost")).isFalse();
        assertThatThrownBy(() -> p.requireHttp("0.0.0.0")).isInstanceOf(ConfigException.class)
                .hasMessage("mcp.principals.short.token: the token has 15 characters, too short for an MCP server "
                        + "listening on 0.0.0.0 (mcp.http.host, not a loopback address): use at least 16 random "
                        + "characters, e.g. from openssl rand -hex 24")
                .hasMessageNotContaining("15-characters!!");
        Principals fromEnv = Principals.from(mcp("mcp: {principals: {bot: {roles: [viewer], token_env: BOT_TOKEN}}}"),
                Map.of("BOT_TOKEN", "tiny")::get);
        assertThatThrownBy(() -> fromEnv.requireHttp("::")).hasMessageStartingWith(
                "mcp.principals.bot.token_env: BOT_TOKEN holds a token of 4 characters, too short");
        Principals exposed = Principals.from(mcp("mcp: {principals: {bot: {roles: [viewer], token: 0123456789abcdef}}}"),
                k -> null);
        assertThat(exposed.requireHttp("0.0.0.0")).as("16 characters: served, with a warning").isTrue();
        assertThatThrownBy(() -> Principals.from(McpSettings.DEFAULTS, k -> null).requireHttp("127.0.0.1"))
                .hasMessageStartingWith("mcp.principals: no principal has a token");
        assertThatThrownBy(() -> mcp("mcp: {http: {host: \"0.0.0.0:8765\"}}")).isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("mcp.http.host must be an IP address or a host name to listen on");
    }

    private static McpSettings mcp(String yaml) {
        return McpSettings.from(ConfigFile.fromYaml(yaml));
    }
}
