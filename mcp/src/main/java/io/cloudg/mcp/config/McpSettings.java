package io.cloudg.mcp.config;

import io.cloudg.resilience.config.ConfigErrors;
import io.cloudg.config.ConfigFile;
import io.cloudg.resilience.config.ConfigNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The {@code mcp} block: who may call the MCP server ({@code cloudg mcp}) and where it keeps datasets.
 *
 * <pre>{@code
 * mcp:
 *   dataset_dir: /var/lib/cloudg/datasets       # default: <output_dir>/datasets
 *   http: {host: 127.0.0.1, port: 8765, path: /mcp}
 *   stdio_principal: alice                      # who a stdio session is (default: the OS user name)
 *   live_roles: [admin, operator]               # who may run the live tools (the default)
 *   principals:
 *     alice:   {roles: [admin]}
 *     ci-bot:  {roles: [operator], token_env: CLOUDG_MCP_TOKEN_CI}
 *     grafana: {roles: [viewer], token: "a-long-random-string", max_calls_per_minute: 30}
 *     auditor: {roles: [viewer], token_env: CLOUDG_MCP_TOKEN_AUDIT, live_tools: true}
 * }</pre>
 *
 * <p>Over HTTP a caller presents {@code Authorization: Bearer <token>}; the token names the principal and
 * its roles. A principal without a token can only be the stdio principal. The live tools (those that call a
 * cloud) need a role among {@code live_roles}, unless the principal's own {@code live_tools} says otherwise.
 *
 * @param datasetDir where datasets are saved, or null for {@code <output_dir>/datasets}
 * @param httpHost the address the HTTP transport binds ({@code 127.0.0.1})
 * @param httpPort its port ({@code 8765}; 0 picks a free one)
 * @param httpPath the MCP endpoint path ({@code /mcp})
 * @param stdioPrincipal the principal of a stdio session, or null for the OS user name
 * @param principals the callers, in the order given
 * @param liveRoles the roles that may run the live tools ({@code admin}, {@code operator}); may be empty
 * @param live the guard rails of live operations ({@code ratelimit.live_*})
 */
public record McpSettings(Path datasetDir, String httpHost, int httpPort, String httpPath, String stdioPrincipal,
                          List<PrincipalSpec> principals, List<String> liveRoles, LiveLimits live) {

    /** The roles a principal can hold. */
    public static final Set<String> ROLES = Set.of("admin", "operator", "viewer");

    /** The roles that may run the live tools when {@code mcp.live_roles} is not set. */
    public static final List<String> DEFAULT_LIVE_ROLES = List.of("admin", "operator");

    static final Set<String> KEYS = Set.of("dataset_dir", "http", "stdio_principal", "principals", "live_roles");
    static final Set<String> HTTP_KEYS = Set.of("host", "port", "path");
    static final Set<String> PRINCIPAL_KEYS = Set.of("roles", "token", "token_env", "max_calls_per_minute", "live_tools");
    static final Pattern NAME = Pattern.compile("[A-Za-z0-9._@-]{1,64}");
    static final Pattern ENV = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    static final Pattern PATH = Pattern.compile("/[A-Za-z0-9._~/-]*");

    public static final McpSettings DEFAULTS = new McpSettings(null, "127.0.0.1", 8765, "/mcp", null, List.of(),
            DEFAULT_LIVE_ROLES, LiveLimits.DEFAULTS);

    /**
     * One caller.
     *
     * @param name the principal's name (quota and logs use it)
     * @param roles admin, operator and/or viewer
     * @param token the bearer token itself, or null
     * @param tokenEnv the environment variable holding the token, or null
     * @param maxCallsPerMinute calls (tools and resource reads) this principal may make per minute (a burst of as many),
     *        or null for no limit
     * @param liveTools whether this principal may run the live tools whatever its roles, or null for what
     *        {@code mcp.live_roles} says of its roles
     */
    public record PrincipalSpec(String name, List<String> roles, String token, String tokenEnv, Integer maxCallsPerMinute,
                                Boolean liveTools) {
        public PrincipalSpec {
            roles = List.copyOf(roles);
            if (maxCallsPerMinute != null && maxCallsPerMinute < 1) {
                throw ConfigErrors.mustBe("mcp.principals." + name + ".max_calls_per_minute", "an integer >= 1", maxCallsPerMinute);
            }
        }

        public PrincipalSpec(String name, List<String> roles, String token, String tokenEnv, Integer maxCallsPerMinute) {
            this(name, roles, token, tokenEnv, maxCallsPerMinute, null);
        }

        public PrincipalSpec(String name, List<String> roles, String token, String tokenEnv) {
            this(name, roles, token, tokenEnv, null, null);
        }

        /** Redacted: never prints the token. */
        @Override
        public String toString() {
            return name + roles + (token != null ? " (token)" : tokenEnv != null ? " (token from $" + tokenEnv + ")" : "")
                    + (liveTools == null ? "" : liveTools ? " (live tools)" : " (no live tools)");
        }
    }

    public McpSettings {
        if (httpHost == null) {
            throw ConfigErrors.mustBe("mcp.http.host", "an address to listen on, like 127.0.0.1", null);
        }
        io.cloudg.config.BindAddress.check("mcp.http.host", httpHost);
        principals = List.copyOf(principals);
        liveRoles = List.copyOf(liveRoles);
        for (String r : liveRoles) {
            if (!ROLES.contains(r)) {
                throw ConfigErrors.mustBe("mcp.live_roles entry", "one of admin, operator, viewer", r);
            }
        }
        if (httpPort < 0 || httpPort > 65535) {
            throw ConfigErrors.mustBe("mcp.http.port", "an integer from 0 to 65535", httpPort);
        }
        if (httpPath == null || !PATH.matcher(httpPath).matches()) {
            throw ConfigErrors.mustBe("mcp.http.path", "a path starting with / like /mcp", httpPath);
        }
        Map<String, String> tokens = new HashMap<>();
        Set<String> names = new java.util.HashSet<>();
        for (PrincipalSpec p : principals) {
            if (!names.add(p.name())) {
                throw ConfigErrors.mustBe("mcp.principals", "unique names", p.name());
            }
            if (p.token() != null && tokens.putIfAbsent(p.token(), p.name()) != null) {
                throw ConfigErrors.mustBe("mcp.principals." + p.name() + ".token", "different from the token of "
                        + tokens.get(p.token()), "(the same token)");
            }
        }
        if (stdioPrincipal != null && !principals.isEmpty() && !names.contains(stdioPrincipal)) {
            throw ConfigErrors.mustBe("mcp.stdio_principal", "one of the mcp.principals (" + String.join(", ", names) + ")",
                    stdioPrincipal);
        }
    }

    /**
     * Reads the {@code mcp} section of {@code file} (absent: the defaults) and the live guard rails of its
     * {@code ratelimit} block ({@link LiveLimits}); unknown keys become the file's warnings.
     */
    public static McpSettings from(ConfigFile file) {
        return load(file.section("mcp")).withLive(LiveLimits.load(file.section("ratelimit")));
    }

    static McpSettings load(ConfigNode y) {
        y.warnUnknown(KEYS);
        McpSettings d = DEFAULTS;
        ConfigNode http = y.section("http");
        http.warnUnknown(HTTP_KEYS);
        String dir = y.string("dataset_dir", null);
        List<PrincipalSpec> principals = new ArrayList<>();
        ConfigNode ps = y.section("principals");
        ps.forEach((name, value) -> {
            String key = ps.key(name);
            if (!NAME.matcher(name).matches()) {
                throw ConfigErrors.mustBe("mcp.principals", "names of 1-64 characters of [A-Za-z0-9._@-]", name);
            }
            if (value == null || !value.isObject()) {
                throw ConfigErrors.mustBe(key, "a mapping with roles (and token or token_env)",
                        value == null ? "null" : ConfigNode.show(value));
            }
            ConfigNode p = ps.section(name);
            p.warnUnknown(PRINCIPAL_KEYS);
            List<String> roles = p.strings("roles", List.of(), null, null);
            if (roles.isEmpty()) {
                throw ConfigErrors.mustBe(key + ".roles", "a non-empty list of admin, operator, viewer", "(none)");
            }
            for (String r : roles) {
                if (!ROLES.contains(r)) {
                    throw ConfigErrors.mustBe(key + ".roles entry", "one of admin, operator, viewer", r);
                }
            }
            String token = p.string("token", null);
            String tokenEnv = p.string("token_env", null, ENV, "an environment variable name");
            if (token != null && tokenEnv != null) {
                throw ConfigErrors.mustBe(key + ".token_env", "unset when " + key + ".token is set", tokenEnv);
            }
            principals.add(new PrincipalSpec(name, roles, token, tokenEnv, p.integer("max_calls_per_minute", null, 1),
                    p.bool("live_tools", null)));
        });
        return new McpSettings(dir == null ? null : Path.of(dir), http.string("host", d.httpHost()),
                http.integer("port", d.httpPort(), 0), http.string("path", d.httpPath()),
                y.string("stdio_principal", null, NAME, "a principal name"), principals,
                y.strings("live_roles", d.liveRoles(), null, null), d.live());
    }

    /** The principal named {@code name}, if configured. */
    public Optional<PrincipalSpec> principal(String name) {
        return principals.stream().filter(p -> p.name().equals(name)).findFirst();
    }

    /** These settings with datasets in {@code dir}. */
    public McpSettings withDatasetDir(Path dir) {
        return new McpSettings(dir, httpHost, httpPort, httpPath, stdioPrincipal, principals, liveRoles, live);
    }

    /** These settings with the HTTP transport on {@code host:port}. */
    public McpSettings withHttp(String host, int port) {
        return new McpSettings(datasetDir, host, port, httpPath, stdioPrincipal, principals, liveRoles, live);
    }

    /** These settings with {@code name} as the stdio principal. */
    public McpSettings withStdioPrincipal(String name) {
        return new McpSettings(datasetDir, httpHost, httpPort, httpPath, name, principals, liveRoles, live);
    }

    /** These settings with {@code p} added to the principals. */
    public McpSettings withPrincipal(PrincipalSpec p) {
        List<PrincipalSpec> all = new ArrayList<>(principals);
        all.add(p);
        return new McpSettings(datasetDir, httpHost, httpPort, httpPath, stdioPrincipal, all, liveRoles, live);
    }

    /** These settings with {@code l} the live guard rails. */
    public McpSettings withLive(LiveLimits l) {
        return new McpSettings(datasetDir, httpHost, httpPort, httpPath, stdioPrincipal, principals, liveRoles,
                java.util.Objects.requireNonNull(l));
    }

    /** These settings with {@code roles} the roles that may run the live tools. */
    public McpSettings withLiveRoles(List<String> roles) {
        return new McpSettings(datasetDir, httpHost, httpPort, httpPath, stdioPrincipal, principals, roles, live);
    }

    @Override
    public String toString() {
        return "McpSettings{datasets=" + datasetDir + ", http=" + httpHost + ":" + httpPort + httpPath + ", stdio="
                + stdioPrincipal + ", principals=" + principals + ", live_roles=" + liveRoles + "}";
    }
}
