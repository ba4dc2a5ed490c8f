package io.cloudg.resilience.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EnvExpansionTest {
    static final Map<String, String> ENV = Map.of("REGION", "eu-west-1", "PORT", "8080", "ON", "true", "EMPTY", "");

    static JsonNode expand(String yaml) {
        return EnvExpansion.expand(ConfigNode.parse(yaml), ENV::get);
    }

    @Test
    void referencesAreFilledInFromTheEnvironmentWithDefaultsAndTypes() {
        JsonNode t = expand("""
                aws: {regions: ["${REGION}", "${OTHER:-us-east-1}"], role_name: "role-${REGION}-x"}
                mcp: {http: {port: "${PORT}", host: "${HOST:-127.0.0.1}"}}
                ratelimit: {enabled: "${ON}", state_file: "$${HOME}/x", live_max_concurrent: 2}
                """);
        assertThat(t.at("/aws/regions/0").asText()).isEqualTo("eu-west-1");
        assertThat(t.at("/aws/regions/1").asText()).isEqualTo("us-east-1");
        assertThat(t.at("/aws/role_name").asText()).isEqualTo("role-eu-west-1-x");
        assertThat(t.at("/mcp/http/port").isInt()).as("a whole-value reference takes its type").isTrue();
        assertThat(t.at("/mcp/http/port").asInt()).isEqualTo(8080);
        assertThat(t.at("/mcp/http/host").asText()).isEqualTo("127.0.0.1");
        assertThat(t.at("/ratelimit/enabled").isBoolean()).isTrue();
        assertThat(t.at("/ratelimit/state_file").asText()).as("$${ is a literal").isEqualTo("${HOME}/x");
        assertThat(t.at("/ratelimit/live_max_concurrent").asInt()).isEqualTo(2);
    }

    @Test
    void anUnsetVariableWithoutDefaultFailsNamingTheKeyAndTheVariable() {
        assertThatThrownBy(() -> expand("aws: {role_name: \"${ROLE}\"}")).isInstanceOf(ConfigException.class)
                .hasMessage("aws.role_name: ${ROLE} is not set in the environment (write ${ROLE:-default} to give a default)");
        assertThatThrownBy(() -> expand("aws: {regions: [a, \"${NOPE}\"]}")).hasMessageStartingWith("aws.regions[1]: ${NOPE}");
        assertThatThrownBy(() -> expand("aws: {role_name: \"${not a name}\"}")).isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("aws.role_name must be text whose ${...} name an environment variable");
    }
}
