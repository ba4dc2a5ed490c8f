package io.cloudg.mcp;

import io.cloudg.mcp.config.McpSettings;
import io.cloudg.mcp.guard.Principal;
import io.cloudg.mcp.guard.Role;
import io.cloudg.resilience.config.ConfigErrors;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The configured callers ({@code mcp.principals}) and their bearer tokens, resolved once at startup
 * ({@code token_env} read from the environment). Tokens matter only over HTTP: a {@code token_env} that is
 * not set fails an HTTP server's start, naming it ({@link #requireTokens()}), and never a stdio server's.
 * With no principal configured, a stdio session is the OS user as an operator (the local user who started
 * the server); configured principals keep their rules. Tokens are compared by SHA-256 digest in constant
 * time; they are never logged. Who may run the live tools: {@link #mayRunLive}.
 */
public final class Principals {
    private record Entry(Principal principal, byte[] tokenDigest, String unsetTokenEnv, Boolean liveTools,
                         String tokenKey, int tokenLength) {
    }

    /** The shortest token taken by a server listening beyond loopback. */
    public static final int MIN_EXPOSED_TOKEN_LENGTH = 16;

    private final List<Entry> entries;
    private final McpSettings settings;

    private Principals(McpSettings settings, List<Entry> entries) {
        this.settings = settings;
        this.entries = List.copyOf(entries);
    }

    /**
     * Fails naming the first {@code token_env} that is not set: an HTTP server checks this before it
     * serves, since a principal without its token could never call it.
     */
    public void requireTokens() {
        for (Entry e : entries) {
            if (e.unsetTokenEnv() != null) {
                throw ConfigErrors.invalid("mcp.principals." + e.principal().name() + ".token_env",
                        "names " + e.unsetTokenEnv() + ", which is not set in the environment");
            }
        }
    }

    /**
     * What an HTTP server needs of its principals before it serves on {@code host}: every {@code token_env}
     * set ({@link #requireTokens()}), some principal with a token, and, when {@code host} is not a loopback
     * address (the tokens cross the network), every token at least {@value #MIN_EXPOSED_TOKEN_LENGTH}
     * characters. Each failure names the setting.
     *
     * @return whether {@code host} is beyond loopback (the caller warns about plain HTTP)
     */
    public boolean requireHttp(String host) {
        requireTokens();
        if (!anyToken()) {
            throw ConfigErrors.invalid("mcp.principals",
                    "no principal has a token or token_env, so nobody could call the MCP server over HTTP");
        }
        if (io.cloudg.config.BindAddress.loopback(host)) {
            return false;
        }
        for (Entry e : entries) {
            if (e.tokenDigest() != null && e.tokenLength() < MIN_EXPOSED_TOKEN_LENGTH) {
                String what = e.tokenKey().endsWith("_env")
                        ? settings.principal(e.principal().name()).map(McpSettings.PrincipalSpec::tokenEnv).orElse("it")
                                + " holds a token of " + e.tokenLength() + " characters"
                        : "the token has " + e.tokenLength() + " characters";
                throw ConfigErrors.invalid(e.tokenKey(), what + ", too short for an MCP server listening on " + host
                        + " (mcp.http.host, not a loopback address): use at least " + MIN_EXPOSED_TOKEN_LENGTH
                        + " random characters, e.g. from openssl rand -hex 24");
            }
        }
        return true;
    }

    public static Principals from(McpSettings s, Function<String, String> env) {
        List<Entry> out = new ArrayList<>();
        for (McpSettings.PrincipalSpec p : s.principals()) {
            String token = p.token();
            String unset = null;
            if (p.tokenEnv() != null) {
                token = env.apply(p.tokenEnv());
                if (token == null || token.isBlank()) {
                    token = null;
                    unset = p.tokenEnv();
                }
            }
            Principal principal = new Principal(p.name(), p.roles().stream().map(Role::parse)
                    .collect(java.util.stream.Collectors.toSet()));
            String tokenKey = "mcp.principals." + p.name() + (p.tokenEnv() != null ? ".token_env" : ".token");
            out.add(new Entry(principal, token == null ? null : digest(token), unset, p.liveTools(), tokenKey,
                    token == null ? 0 : token.length()));
        }
        return new Principals(s, out);
    }

    /** The principal whose token this is, if any. */
    public Optional<Principal> byToken(String token) {
        if (token == null || token.isEmpty()) {
            return Optional.empty();
        }
        byte[] d = digest(token);
        Principal found = null;
        for (Entry e : entries) {
            if (e.tokenDigest() != null && MessageDigest.isEqual(e.tokenDigest(), d)) {
                found = e.principal();
            }
        }
        return Optional.ofNullable(found);
    }

    /**
     * Whether {@code p} may run the live tools (those that call a cloud): its own
     * {@code mcp.principals.<name>.live_tools} when set, else whether one of its roles is in
     * {@code mcp.live_roles} (default admin, operator).
     */
    public boolean mayRunLive(Principal p) {
        Boolean own = entries.stream().filter(e -> e.principal().name().equals(p.name())).map(Entry::liveTools)
                .filter(java.util.Objects::nonNull).findFirst().orElse(null);
        if (own != null) {
            return own;
        }
        return p.roleNames().stream().anyMatch(settings.liveRoles()::contains);
    }

    /** Whether {@code p}'s own {@code live_tools} is false (rather than its roles lacking one of {@code live_roles}). */
    boolean liveToolsDenied(Principal p) {
        return entries.stream().anyMatch(e -> e.principal().name().equals(p.name()) && Boolean.FALSE.equals(e.liveTools()));
    }

    /** The roles that may run the live tools ({@code mcp.live_roles}). */
    public java.util.List<String> liveRoles() {
        return settings.liveRoles();
    }

    /** Whether any principal can authenticate over HTTP. */
    public boolean anyToken() {
        return entries.stream().anyMatch(e -> e.tokenDigest() != null);
    }

    /**
     * The principal of a stdio session: with no principal configured, the OS user {@code osUser} as an
     * operator; otherwise {@code mcp.stdio_principal}, else the OS user, which MUST be configured (stdio has no
     * token, so the configuration is what vouches for the local user).
     */
    public Principal stdio(String osUser) {
        if (entries.isEmpty() && settings.stdioPrincipal() == null) {
            return new Principal(osUser == null || osUser.isBlank() ? "local" : osUser, java.util.Set.of(Role.OPERATOR));
        }
        String name = settings.stdioPrincipal() != null ? settings.stdioPrincipal() : osUser;
        return entries.stream().map(Entry::principal).filter(p -> p.name().equals(name)).findFirst()
                .orElseThrow(() -> ConfigErrors.invalid("mcp.stdio_principal", "the stdio user \"" + name
                        + "\" is not among mcp.principals (" + String.join(", ",
                        entries.stream().map(e -> e.principal().name()).toList())
                        + "); add it, e.g. mcp: {principals: {" + name + ": {roles: [operator]}}}"));
    }

    private static byte[] digest(String token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
