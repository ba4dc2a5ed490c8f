package io.cloudg.resilience.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The {@code ratelimit.redis} block: where the fleet-wide governor state lives and how to reach it.
 * Immutable; build with {@link #builder()}. Read only when {@code ratelimit.backend} is {@code redis}.
 *
 * <p>{@code url} is {@code redis://host:port} or {@code rediss://host:port} (TLS), optionally with a
 * database ({@code redis://host:6379/2}) and credentials ({@code redis://user:pass@host:6379}, though
 * {@code username} + {@code password_env} keep the secret out of config files). For
 * {@code mode: sentinel} and {@code mode: cluster} it is a comma-separated list of node addresses. The
 * password never appears in {@link #toString()} or {@link #redactedUrl()}.
 *
 * @param url the address(es), see above; null when unset (then no Redis store can be built: a backend of
 *        {@code redis} without a URL is refused naming {@code ratelimit.redis.url} when the governor is built)
 * @param mode standalone, sentinel or cluster
 * @param sentinelMaster the master name, for sentinel mode
 * @param keyPrefix the estate's key prefix ({@code [A-Za-z0-9._-]+}); estates sharing a Redis differ here
 * @param fleetSizeHint how many workers share the quotas, at least: while Redis is lost each one runs at
 *        {@code 1/n} of every configured limit, n the larger of this and the processes last seen in Redis (live
 *        or presumed degraded); the others, still on Redis, leave that share unspent meanwhile
 * @param learnedTtlHours how long learned rates, breakers and budgets survive without use (refreshed on use)
 * @param connectTimeoutMs TCP connect timeout
 * @param timeoutMs how long to wait for one reply before the store counts as unreachable
 * @param poolSize connections per node
 * @param minIdle connections kept open per node
 * @param pipelineMaxBatch the most scripts sent in one pipelined write (1 = no pipelining)
 * @param probeIntervalSeconds while degraded, how often to check whether Redis is back
 * @param degradeAfterSeconds how long Redis must keep failing calls (at least three in a row, none answered
 *        between) before a process counts it as lost and paces locally; 0 degrades at the first failure
 * @param presumedDegradedSeconds how long a process silent in Redis (its heartbeat overdue) is presumed degraded,
 *        so that the processes that still reach Redis leave its share of every limit unspent; after that it
 *        counts as gone (a crashed process costs the others its share for this long at most). 0 presumes
 *        nobody degraded (the healthy processes always spend the whole limit); else at least the heartbeat's
 *        lapse, {@value #HEARTBEAT_LAPSE_SECONDS} s
 * @param username the ACL user, or null
 * @param password the password, or null (then {@code password_env} is read)
 * @param passwordEnv the environment variable holding the password; null means {@code CLOUDG_REDIS_PASSWORD},
 *        read if set. Named explicitly, the variable must be set.
 * @param caFile for {@code rediss://}: a PEM file of the CA certificate(s) that sign the server's certificate,
 *        trusted for this connection only (the JVM's trust store, which the cloud SDKs use, is left alone);
 *        null: the JVM's trust store verifies the server
 * @param trustStore for {@code rediss://}: instead of {@code caFile}, a PKCS12 or JKS trust store holding those
 *        certificates
 * @param trustStorePasswordEnv the environment variable holding {@code trustStore}'s password, or null for a
 *        store opened without one
 */
public record RedisSettings(String url, Mode mode, String sentinelMaster, String keyPrefix, int fleetSizeHint,
                            double learnedTtlHours, int connectTimeoutMs, int timeoutMs, int poolSize, int minIdle,
                            int pipelineMaxBatch, double probeIntervalSeconds, double degradeAfterSeconds,
                            double presumedDegradedSeconds, String username, String password,
                            String passwordEnv, String caFile, String trustStore, String trustStorePasswordEnv) {

    public enum Mode { STANDALONE, SENTINEL, CLUSTER }

    private static final String K = "ratelimit.redis.";
    /** How long a process counts as live in Redis after its last heartbeat (the Redis backend's Presence rule). */
    public static final int HEARTBEAT_LAPSE_SECONDS = 20;
    private static final Pattern PREFIX = Pattern.compile("[A-Za-z0-9._-]{1,64}");
    private static final Pattern ENV = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    public static final RedisSettings DEFAULTS = builder().build();

    public RedisSettings {
        if (url != null && url.isBlank()) {
            throw ConfigErrors.mustBe(K + "url", "a redis:// or rediss:// URL", url);
        }
        if (url != null) {
            for (String a : url.split(",")) {
                checkAddress(a.trim(), url);
            }
        }
        if (mode == null) {
            throw ConfigErrors.mustBe(K + "mode", "standalone, sentinel or cluster", null);
        }
        if (mode == Mode.SENTINEL && (sentinelMaster == null || sentinelMaster.isBlank())) {
            throw ConfigErrors.invalid(K + "sentinel_master", "is required when mode is sentinel");
        }
        if (mode == Mode.STANDALONE && url != null && url.contains(",")) {
            throw ConfigErrors.mustBe(K + "url", "one address in standalone mode", url);
        }
        if (keyPrefix == null || !PREFIX.matcher(keyPrefix).matches()) {
            throw ConfigErrors.mustBe(K + "key_prefix", "1-64 characters of [A-Za-z0-9._-]", keyPrefix);
        }
        ConfigErrors.atLeast(K + "fleet_size_hint", fleetSizeHint, 1);
        ConfigErrors.positive(K + "learned_ttl_hours", learnedTtlHours);
        ConfigErrors.atLeast(K + "connect_timeout_ms", connectTimeoutMs, 1);
        ConfigErrors.atLeast(K + "timeout_ms", timeoutMs, 1);
        ConfigErrors.atLeast(K + "pool_size", poolSize, 1);
        ConfigErrors.atLeast(K + "min_idle", minIdle, 0);
        if (minIdle > poolSize) {
            throw ConfigErrors.mustBe(K + "min_idle", "at most pool_size (" + poolSize + ")", minIdle);
        }
        ConfigErrors.atLeast(K + "pipeline_max_batch", pipelineMaxBatch, 1);
        ConfigErrors.positive(K + "probe_interval_seconds", probeIntervalSeconds);
        ConfigErrors.nonNegative(K + "degrade_after_seconds", degradeAfterSeconds);
        if (!(presumedDegradedSeconds == 0 || presumedDegradedSeconds >= HEARTBEAT_LAPSE_SECONDS)
                || Double.isInfinite(presumedDegradedSeconds)) {
            throw ConfigErrors.mustBe(K + "presumed_degraded_seconds", "0 or a number >= " + HEARTBEAT_LAPSE_SECONDS
                    + " (the heartbeat's lapse)", presumedDegradedSeconds);
        }
        if (passwordEnv != null && !ENV.matcher(passwordEnv).matches()) {
            throw ConfigErrors.mustBe(K + "password_env", "an environment variable name", passwordEnv);
        }
        if (trustStorePasswordEnv != null && !ENV.matcher(trustStorePasswordEnv).matches()) {
            throw ConfigErrors.mustBe(K + "trust_store_password_env", "an environment variable name", trustStorePasswordEnv);
        }
        checkTrust(url, caFile, trustStore, trustStorePasswordEnv);
    }

    /** The CA settings are honoured or refused: never both, never half, never on a connection without TLS. */
    private static void checkTrust(String url, String caFile, String trustStore, String trustStorePasswordEnv) {
        if (caFile != null && caFile.isBlank()) {
            throw ConfigErrors.mustBe(K + "ca_file", "the path of a PEM file", caFile);
        }
        if (trustStore != null && trustStore.isBlank()) {
            throw ConfigErrors.mustBe(K + "trust_store", "the path of a PKCS12 or JKS file", trustStore);
        }
        if (caFile != null && trustStore != null) {
            throw ConfigErrors.invalid(K + "ca_file", "cannot be combined with " + K + "trust_store: give the CA one way");
        }
        if (trustStorePasswordEnv != null && trustStore == null) {
            throw ConfigErrors.invalid(K + "trust_store_password_env", "is set without " + K + "trust_store");
        }
        String trustKey = caFile != null ? K + "ca_file" : trustStore != null ? K + "trust_store" : null;
        if (trustKey != null && url != null && !url.trim().toLowerCase(Locale.ROOT).startsWith("rediss://")) {
            throw ConfigErrors.invalid(trustKey, "is set, but the connection has no TLS (" + redact(url)
                    + "): use rediss:// in " + K + "url or --redis");
        }
    }

    private static void checkAddress(String a, String whole) {
        try {
            URI u = new URI(a.contains("://") ? a : "redis://" + a);
            String scheme = u.getScheme().toLowerCase(Locale.ROOT);
            if (!(scheme.equals("redis") || scheme.equals("rediss")) || u.getHost() == null) {
                throw ConfigErrors.mustBe(K + "url", "a redis:// or rediss:// URL", redact(whole));
            }
        } catch (URISyntaxException e) {
            throw ConfigErrors.mustBe(K + "url", "a redis:// or rediss:// URL", redact(whole));
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        return new Builder().url(url).mode(mode).sentinelMaster(sentinelMaster).keyPrefix(keyPrefix)
                .fleetSizeHint(fleetSizeHint).learnedTtlHours(learnedTtlHours).connectTimeoutMs(connectTimeoutMs)
                .timeoutMs(timeoutMs).poolSize(poolSize).minIdle(minIdle).pipelineMaxBatch(pipelineMaxBatch)
                .probeIntervalSeconds(probeIntervalSeconds).degradeAfterSeconds(degradeAfterSeconds).presumedDegradedSeconds(presumedDegradedSeconds).username(username).password(password)
                .passwordEnv(passwordEnv).caFile(caFile).trustStore(trustStore).trustStorePasswordEnv(trustStorePasswordEnv);
    }

    /** This block with another URL (the CLI's {@code --redis URL}). */
    public RedisSettings withUrl(String newUrl) {
        return toBuilder().url(newUrl).build();
    }

    /** Whether a URL is set. */
    public boolean hasUrl() {
        return url != null;
    }

    /**
     * The URL, or a {@link ConfigException} naming {@code ratelimit.redis.url} (and the {@code --redis} flag)
     * when it is unset: what a Redis store is built from.
     */
    public String requireUrl() {
        if (url == null) {
            throw ConfigErrors.invalid(K + "url", "is not set, and ratelimit.backend is redis: set it (redis://host:6379) "
                    + "or pass --redis URL");
        }
        return url;
    }

    /** Node addresses without credentials or database, as {@code redis[s]://host:port}. */
    public List<String> addresses() {
        String url = requireUrl();
        List<String> out = new ArrayList<>();
        for (String a : url.split(",")) {
            URI u = URI.create(a.trim().contains("://") ? a.trim() : "redis://" + a.trim());
            int port = u.getPort() > 0 ? u.getPort() : 6379;
            out.add(u.getScheme().toLowerCase(Locale.ROOT) + "://" + u.getHost() + ":" + port);
        }
        return out;
    }

    /** Whether the connection uses TLS ({@code rediss://}). */
    public boolean tls() {
        return url != null && url.trim().toLowerCase(Locale.ROOT).startsWith("rediss://");
    }

    /** The database number of a standalone or sentinel URL ({@code redis://host/2}), 0 by default. */
    public int database() {
        URI u = URI.create(requireUrl().split(",")[0].trim());
        String path = u.getPath();
        if (path == null || path.length() <= 1) {
            return 0;
        }
        try {
            return Integer.parseInt(path.substring(1));
        } catch (NumberFormatException e) {
            throw ConfigErrors.mustBe(K + "url", "a URL whose path is a database number", redactedUrl());
        }
    }

    /** The user: {@code username}, else the URL's user info. */
    public String resolvedUsername() {
        if (username != null) {
            return username;
        }
        String[] ui = userInfo();
        return ui != null && ui.length == 2 && !ui[0].isEmpty() ? ui[0] : null;
    }

    /** The variable read for the password when neither {@code password} nor the URL has one. */
    public static final String DEFAULT_PASSWORD_ENV = "CLOUDG_REDIS_PASSWORD";

    /**
     * The password: {@code password}, else the URL's, else the environment variable {@code password_env}
     * (looked up with {@code env}), else null.
     *
     * @throws ConfigException naming {@code password_env} when it names a variable that is not set (or empty):
     *         a secret the configuration asks for is never silently dropped
     */
    public String resolvedPassword(Function<String, String> env) {
        if (password != null) {
            return password;
        }
        String[] ui = userInfo();
        if (ui != null) {
            return ui.length == 2 ? ui[1] : ui[0];
        }
        String v = env.apply(passwordEnv == null ? DEFAULT_PASSWORD_ENV : passwordEnv);
        if ((v == null || v.isEmpty()) && passwordEnv != null) {
            throw ConfigErrors.mustBe(K + "password_env", "the name of a set environment variable", passwordEnv);
        }
        return v == null || v.isEmpty() ? null : v;
    }

    /**
     * Where {@link #resolvedPassword} found the password, for messages ({@code $CLOUDG_REDIS_PASSWORD
     * (ratelimit.redis.password_env)}), or null when there is none. Never the password itself.
     */
    public String passwordSource(Function<String, String> env) {
        if (password != null) {
            return K + "password";
        }
        if (userInfo() != null) {
            return "the URL (" + K + "url or --redis)";
        }
        String name = passwordEnv == null ? DEFAULT_PASSWORD_ENV : passwordEnv;
        String v = env.apply(name);
        return v == null || v.isEmpty() ? null : "$" + name + " (" + K + "password_env)";
    }

    /** The setting that names the CA for TLS ({@code ratelimit.redis.ca_file = /path}), or null for the JVM's. */
    public String trustSource() {
        return caFile != null ? K + "ca_file " + caFile : trustStore != null ? K + "trust_store " + trustStore : null;
    }

    private String[] userInfo() {
        if (url == null) {
            return null;
        }
        String ui = URI.create(url.split(",")[0].trim()).getRawUserInfo();
        if (ui == null || ui.isEmpty()) {
            return null;
        }
        String[] p = ui.split(":", 2);
        for (int i = 0; i < p.length; i++) {
            p[i] = java.net.URLDecoder.decode(p[i], java.nio.charset.StandardCharsets.UTF_8);
        }
        return p;
    }

    /** The URL with any credentials removed, for logs and {@code describe()}. */
    public String redactedUrl() {
        return redact(url);
    }

    static String redact(String u) {
        return u == null ? null : u.replaceAll("(rediss?://)[^@/,]*@", "$1");
    }

    @Override
    public String toString() {
        return "RedisSettings{url=" + (url == null ? "unset" : redactedUrl()) + ", mode=" + mode + ", key_prefix=" + keyPrefix
                + ", fleet_size_hint=" + fleetSizeHint + ", learned_ttl_hours=" + learnedTtlHours
                + ", timeout_ms=" + timeoutMs + ", degrade_after_seconds=" + degradeAfterSeconds + ", presumed_degraded_seconds=" + presumedDegradedSeconds + ", pool_size=" + poolSize + ", username=" + username
                + ", password=" + (password == null ? "unset" : "***")
                + (caFile == null ? "" : ", ca_file=" + caFile) + (trustStore == null ? "" : ", trust_store=" + trustStore) + "}";
    }

    /** Builds {@link RedisSettings}; every setter's null means the default. */
    public static final class Builder {
        private String url;
        private Mode mode = Mode.STANDALONE;
        private String sentinelMaster;
        private String keyPrefix = "cloudg";
        private int fleetSizeHint = 1;
        private double learnedTtlHours = 24;
        private int connectTimeoutMs = 2000;
        private int timeoutMs = 1000;
        private int poolSize = 16;
        private int minIdle = 4;
        private int pipelineMaxBatch = 64;
        private double probeIntervalSeconds = 5;
        private double degradeAfterSeconds = 5;
        private double presumedDegradedSeconds = 300;
        private String username;
        private String password;
        private String passwordEnv;
        private String caFile;
        private String trustStore;
        private String trustStorePasswordEnv;

        public Builder url(String v) { if (v != null) url = v; return this; }
        public Builder mode(Mode v) { if (v != null) mode = v; return this; }
        public Builder sentinelMaster(String v) { sentinelMaster = v; return this; }
        public Builder keyPrefix(String v) { if (v != null) keyPrefix = v; return this; }
        public Builder fleetSizeHint(Integer v) { if (v != null) fleetSizeHint = v; return this; }
        public Builder learnedTtlHours(Double v) { if (v != null) learnedTtlHours = v; return this; }
        public Builder connectTimeoutMs(Integer v) { if (v != null) connectTimeoutMs = v; return this; }
        public Builder timeoutMs(Integer v) { if (v != null) timeoutMs = v; return this; }
        public Builder poolSize(Integer v) { if (v != null) poolSize = v; return this; }
        public Builder minIdle(Integer v) { if (v != null) minIdle = v; return this; }
        public Builder pipelineMaxBatch(Integer v) { if (v != null) pipelineMaxBatch = v; return this; }
        public Builder probeIntervalSeconds(Double v) { if (v != null) probeIntervalSeconds = v; return this; }
        public Builder degradeAfterSeconds(Double v) { if (v != null) degradeAfterSeconds = v; return this; }
        public Builder presumedDegradedSeconds(Double v) { if (v != null) presumedDegradedSeconds = v; return this; }
        public Builder username(String v) { username = v; return this; }
        public Builder password(String v) { password = v; return this; }
        public Builder passwordEnv(String v) { passwordEnv = v; return this; }
        public Builder caFile(String v) { caFile = v; return this; }
        public Builder trustStore(String v) { trustStore = v; return this; }
        public Builder trustStorePasswordEnv(String v) { trustStorePasswordEnv = v; return this; }

        /** {@code standalone}, {@code sentinel} or {@code cluster}, as written in YAML. */
        public Builder mode(String v) {
            if (v == null) {
                return this;
            }
            try {
                return mode(Mode.valueOf(v.trim().toUpperCase(Locale.ROOT)));
            } catch (IllegalArgumentException e) {
                throw ConfigErrors.mustBe(K + "mode", "standalone, sentinel or cluster", v);
            }
        }

        public RedisSettings build() {
            return new RedisSettings(url, mode, sentinelMaster, keyPrefix, fleetSizeHint, learnedTtlHours,
                    connectTimeoutMs, timeoutMs, poolSize, minIdle, pipelineMaxBatch, probeIntervalSeconds,
                    degradeAfterSeconds, presumedDegradedSeconds, username,
                    password, passwordEnv, caFile, trustStore, trustStorePasswordEnv);
        }
    }
}
