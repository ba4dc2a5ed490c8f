package io.cloudg.config;

import com.fasterxml.jackson.databind.JsonNode;
import io.cloudg.resilience.config.ConfigNode;
import io.cloudg.resilience.config.EnvExpansion;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * One {@code cloudg.yaml}, parsed once and read by section: each module binds its own part ({@code
 * CloudGConfig.from}, {@code FleetSettings.from}, the MCP server's settings) through {@link #section}, and
 * every reader adds the unknown keys it finds to this file's {@link #warnings()}. The top-level keys any
 * module reads are declared through {@link ConfigKeys} ({@link ServiceLoader}), so a key of a module that
 * is on the class path is never called unknown, and one that no module reads is.
 */
public final class ConfigFile {
    private static final Set<String> TOP_LEVEL = discoverKeys();

    private final ConfigNode root;

    private ConfigFile(JsonNode tree) {
        this.root = ConfigNode.root(tree, new ArrayList<>());
        root.warnUnknown(TOP_LEVEL);
    }

    /**
     * Reads a file, {@code ${VAR}} references filled in from the process's environment; a missing or
     * unreadable file fails naming {@code --config} and the path.
     */
    public static ConfigFile load(Path file) {
        return load(file, System::getenv);
    }

    /** {@link #load(Path)} with {@code env} for the {@code ${VAR}} references ({@link EnvExpansion}). */
    public static ConfigFile load(Path file, Function<String, String> env) {
        return new ConfigFile(EnvExpansion.expand(ConfigNode.read(file, "--config"), env));
    }

    public static ConfigFile fromYaml(String yaml) {
        return fromYaml(yaml, System::getenv);
    }

    public static ConfigFile fromYaml(String yaml, Function<String, String> env) {
        return new ConfigFile(EnvExpansion.expand(ConfigNode.parse(yaml), env));
    }

    /** No file: every section has its defaults. */
    public static ConfigFile empty() {
        return new ConfigFile(null);
    }

    /** A top-level section ({@code aws}, {@code fleet}, ...); empty when absent. */
    public ConfigNode section(String key) {
        return root.section(key);
    }

    /** The root mapping, for readers of top-level scalars ({@code providers}, {@code workers}). */
    public ConfigNode root() {
        return root;
    }

    /** The warnings so far: unknown top-level keys, and those of every section read. */
    public List<String> warnings() {
        return List.copyOf(root.warnings());
    }

    /** The top-level keys the modules on the class path read. */
    public static Set<String> topLevelKeys() {
        return TOP_LEVEL;
    }

    private static Set<String> discoverKeys() {
        Set<String> keys = new TreeSet<>();
        for (ConfigKeys k : ServiceLoader.load(ConfigKeys.class, ConfigFile.class.getClassLoader())) {
            keys.addAll(k.topLevelKeys());
        }
        return Set.copyOf(keys);
    }
}
