package io.cloudg.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The short commands through the launcher as built: {@code --version}, {@code completion bash|zsh},
 * {@code collectors} (and its IAM policy), and a mistyped command or argument (exit 2, one line). The commands
 * that map, serve or run a fleet are in LauncherDocsIT, LauncherMcpIT and LauncherFleetIT.
 */
class LauncherCommandsIT {
    static Path dir;

    @BeforeAll
    static void dir() throws Exception {
        dir = Launcher.workDir("commands");
    }

    @Test
    void versionNamesTheReleaseTheCommitAndTheJvm() {
        Launcher.Result r = Launcher.run(dir, "--version").exits(0);
        assertThat(r.out()).containsPattern("^cloudg \\d+\\.\\d+\\.\\d+(-SNAPSHOT)? \\(commit \\w+\\)")
                .contains("Java " + System.getProperty("java.version"));
        assertThat(r.err()).isEmpty();
    }

    @Test
    void completionWritesAScriptForBashAndZshAndRefusesOtherShells() {
        Launcher.Result bash = Launcher.run(dir, "completion", "bash").exits(0);
        assertThat(bash.out()).startsWith("#!/usr/bin/env bash").contains("complete -F _complete_cloudg")
                .contains("map").contains("worker").contains("ratelimit").contains("collectors");
        Launcher.Result zsh = Launcher.run(dir, "completion", "zsh").exits(0);
        assertThat(zsh.out()).startsWith("autoload -U +X compinit && compinit").contains("bashcompinit");
        Launcher.Result fish = Launcher.run(dir, "completion", "fish").exits(2);
        assertThat(fish.err().strip()).isEqualTo("cloudg: SHELL must be bash or zsh, but was \"fish\" (see cloudg completion --help)");
    }

    @Test
    void collectorsListsEachCollectorWithItsCallsAndPermissionsAndThePolicy() throws Exception {
        Launcher.Result table = Launcher.run(dir, "collectors").exits(0);
        assertThat(table.out().lines().findFirst()).hasValueSatisfying(h -> assertThat(h)
                .containsPattern("^COLLECTOR +SERVICE +SCOPE +CALLS -> IAM ACTIONS$"));
        assertThat(table.out()).containsPattern("(?m)^subnets +ec2 +regional +DescribeSubnets -> ec2:DescribeSubnets$")
                .containsPattern("(?m)^\\d+ collector\\(s\\)");

        Launcher.Result policy = Launcher.run(dir, "collectors", "--policy").exits(0);
        JsonNode doc = new ObjectMapper().readTree(policy.out());
        assertThat(doc.path("Version").asText()).isEqualTo("2012-10-17");
        assertThat(doc.toString()).contains("ec2:DescribeSubnets");
    }

    @Test
    void aMistypedCommandIsOneLineAndExitCodeTwo() {
        Launcher.Result r = Launcher.run(dir, "mapp").exits(2);
        assertThat(r.err().strip()).isEqualTo("cloudg: Unmatched argument at index 0: 'mapp' (see cloudg --help)");
        assertThat(r.out()).isEmpty();
    }
}
