package io.cloudg.mcp.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cloudg.CloudGConfig;
import io.cloudg.config.ConfigFile;
import org.junit.jupiter.api.Test;

/** The MCP server binds its guard rails from the ratelimit block; the governor neither reads them nor warns about them. */
class LiveLimitsTest {
    @Test
    void theLiveKeysOfRatelimitAreTheMcpServersWithAProvidersOwnCooldownWinning() {
        ConfigFile f = ConfigFile.fromYaml("""
                ratelimit:
                  live_cooldown_seconds: 600
                  live_caller_max_operations: 3
                  live_caller_window_seconds: 1800
                  aws: {max_rps: 8, live_cooldown_seconds: 900}
                """);
        CloudGConfig.from(f);
        LiveLimits l = McpSettings.from(f).live();
        assertThat(f.warnings()).isEmpty();
        assertThat(l.cooldownSeconds("aws")).isEqualTo(900);
        assertThat(l.cooldownSeconds("gcp")).isEqualTo(600);
        assertThat(l.callerMaxOperations()).isEqualTo(3);
        assertThat(l.callerWindowSeconds()).isEqualTo(1800);
        assertThat(l.maxConcurrent()).isEqualTo(1);
        assertThat(McpSettings.from(ConfigFile.empty()).live()).isEqualTo(LiveLimits.DEFAULTS);
        assertThat(LiveLimits.DEFAULTS).isEqualTo(new LiveLimits(1, 2, 120, 0, 3600, 3600, java.util.Map.of()));
    }

    @Test
    void outOfRangeValuesFailNamingTheKey() {
        assertThatThrownBy(() -> McpSettings.from(ConfigFile.fromYaml("ratelimit: {live_max_concurrent_total: 0}")))
                .hasMessage("ratelimit.live_max_concurrent_total must be an integer >= 1, but was 0");
        assertThatThrownBy(() -> McpSettings.from(ConfigFile.fromYaml("ratelimit: {gcp: {live_cooldown_seconds: -1}}")))
                .hasMessage("ratelimit.gcp.live_cooldown_seconds must be an integer >= 0, but was -1");
        assertThatThrownBy(() -> McpSettings.from(ConfigFile.fromYaml("ratelimit: {live_cooldown_seconds: soon}")))
                .hasMessage("ratelimit.live_cooldown_seconds must be an integer, but was \"soon\"");
    }
}
