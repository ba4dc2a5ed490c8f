package io.cloudg.cli;

import io.cloudg.config.ConfigFile;
import io.cloudg.resilience.config.ConfigErrors;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Function;

/**
 * Where a command's {@code cloudg.yaml} comes from, in this order: {@code --config FILE}, then the
 * {@code CLOUDG_CONFIG} environment variable, then {@code ./cloudg.yaml} when it exists; none of them, the
 * defaults. {@code ${VAR}} references in the file are filled in from the environment.
 */
final class ConfigLocation {
    static final String ENV = "CLOUDG_CONFIG";
    static final String DEFAULT_NAME = "cloudg.yaml";

    private ConfigLocation() {
    }

    /** The file to read, or null for none. */
    static Path resolve(Path flag, Function<String, String> env, Path workingDir) {
        if (flag != null) {
            return flag;
        }
        String fromEnv = env.apply(ENV);
        if (fromEnv != null && !fromEnv.isBlank()) {
            Path p = Path.of(fromEnv.trim());
            if (!Files.isRegularFile(p)) {
                throw ConfigErrors.mustBe(ENV, "an existing file", fromEnv);
            }
            return p;
        }
        Path local = workingDir.resolve(DEFAULT_NAME);
        return Files.isRegularFile(local) ? local : null;
    }

    static ConfigFile load(Path flag, Function<String, String> env, Path workingDir) {
        Path p = resolve(flag, env, workingDir);
        return p == null ? ConfigFile.empty() : ConfigFile.load(p, env);
    }

    /** {@link #load} with the process's environment and working directory. */
    static ConfigFile load(Path flag) {
        return load(flag, System::getenv, Path.of(""));
    }
}
