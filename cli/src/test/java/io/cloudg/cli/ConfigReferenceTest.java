package io.cloudg.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudg.config.ConfigKeys;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ServiceLoader;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/configuration.md documents exactly the keys the code reads: every module's {@link ConfigKeys} list,
 * no key missing, none that does not exist.
 */
class ConfigReferenceTest {
    static final Path DOC = Path.of("..", "docs", "configuration.md");
    static final Pattern ROW = Pattern.compile("^\\| `([^`]+)` \\|", Pattern.MULTILINE);

    static SortedSet<String> codeKeys() {
        SortedSet<String> keys = new TreeSet<>();
        for (ConfigKeys k : ServiceLoader.load(ConfigKeys.class)) {
            keys.addAll(k.documentedKeys());
        }
        return keys;
    }

    static SortedSet<String> documented() throws Exception {
        SortedSet<String> keys = new TreeSet<>();
        Matcher m = ROW.matcher(Files.readString(DOC));
        while (m.find()) {
            keys.add(m.group(1));
        }
        return keys;
    }

    @Test
    void everyKeyTheCodeReadsIsDocumentedAndNoOther() throws Exception {
        SortedSet<String> code = codeKeys();
        SortedSet<String> doc = documented();
        assertThat(code).as("keys the modules declare").contains("aws.endpoint_url", "fleet.kafka.bootstrap_servers",
                "mcp.principals.<name>.token_env", "ratelimit.<provider>.max_rps", "ratelimit.state_file");
        SortedSet<String> missing = new TreeSet<>(code);
        missing.removeAll(doc);
        SortedSet<String> stale = new TreeSet<>(doc);
        stale.removeAll(code);
        assertThat(missing).as("read by the code but not in docs/configuration.md").isEmpty();
        assertThat(stale).as("in docs/configuration.md but read by no code").isEmpty();
    }
}
