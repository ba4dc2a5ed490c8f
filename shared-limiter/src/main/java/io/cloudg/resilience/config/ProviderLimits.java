package io.cloudg.resilience.config;

import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * The resolved limits of one provider ({@code ratelimit.aws}, {@code ratelimit.azure},
 * {@code ratelimit.gcp}). Immutable. Every unset value is the built-in one; {@link #services()}
 * is the built-in table with the user's entries merged in key by key.
 *
 * <p>Leaf granularity: an operation gets a bucket (and breaker) of its own when the provider is AWS
 * and the service is {@code ec2} (EC2 throttles each API action separately), when a
 * {@code <service>.<Operation>} entry exists, or when the service's entry (or the provider) has
 * {@code per_operation: true}. Everything else is per service.
 */
public final class ProviderLimits {
    private final String provider;
    private final boolean enabled;
    private final boolean adaptive;
    private final boolean perOperation;
    private final ServiceLimit defaultLeaf;
    private final Map<String, ServiceLimit> services;
    /** {@link #services} for the call path's look-ups: hashed, not sorted. */
    private final Map<String, ServiceLimit> lookup;
    /** The services that have a {@code <service>.<Operation>} entry: only their calls look for one. */
    private final Set<String> servicesWithOperations;
    private final Map<String, ServiceLimit> overrides;
    private final BucketLimit account;
    private final BucketLimit global;
    private final int maxConcurrency;
    private final double minRps;
    private final int breakerThreshold;
    private final double breakerCooldownSeconds;
    private final double breakerMaxCooldownSeconds;
    private final double breakerProbeTimeoutSeconds;
    private final double slotLeaseSeconds;
    private final int retryBudget;
    private final int maxRetries;
    private final double maxBackoffSeconds;
    private final double deadlineSeconds;

    private ProviderLimits(Builder b) {
        String k = "ratelimit." + b.provider + ".";
        BuiltInRates.Defaults d = BuiltInRates.of(b.provider);
        if (d == null) {
            throw ConfigErrors.mustBe("ratelimit", "configured for aws, azure or gcp", b.provider);
        }
        this.provider = b.provider;
        this.enabled = b.enabled == null || b.enabled;
        this.adaptive = b.adaptive == null || b.adaptive;
        this.perOperation = b.perOperation != null && b.perOperation;
        this.minRps = b.minRps == null ? d.minRps() : ConfigErrors.positive(k + "min_rps", b.minRps);

        if (b.maxRps == null && b.burst == null) {
            this.defaultLeaf = d.defaultLeaf();
        } else {
            double rate = b.maxRps == null ? d.defaultLeaf().maxRps() : ConfigErrors.positive(k + "max_rps", b.maxRps);
            double burst = b.burst == null ? twice(rate) : ConfigErrors.positive(k + "burst", b.burst);
            this.defaultLeaf = new ServiceLimit(rate, burst, false);
        }

        Map<String, ServiceLimit> table = new TreeMap<>(d.services());
        Map<String, ServiceLimit> user = new LinkedHashMap<>();
        for (Map.Entry<String, ServiceLimit> e : b.services.entrySet()) {
            String key = e.getKey();
            String sk = k + "services." + key;
            checkServiceKey(sk, key);
            ServiceLimit v = e.getValue();
            double rate = v.maxRps() == null ? defaultLeaf.maxRps() : ConfigErrors.positive(sk + ".max_rps", v.maxRps());
            double burst = v.burst() == null ? twice(rate) : ConfigErrors.positive(sk + ".burst", v.burst());
            ServiceLimit resolved = new ServiceLimit(rate, burst, v.perOperation());
            table.put(key, resolved);
            user.put(key, v);
        }
        this.services = Collections.unmodifiableMap(table);
        this.lookup = new HashMap<>(table);
        Set<String> withOperations = new HashSet<>();
        for (String key : table.keySet()) {
            int dot = key.indexOf('.');
            if (dot > 0) {
                withOperations.add(key.substring(0, dot));
            }
        }
        this.servicesWithOperations = withOperations;
        this.overrides = Collections.unmodifiableMap(user);

        if (b.accountMaxRps == null && b.accountBurst == null) {
            this.account = d.account();
        } else {
            double base = b.accountMaxRps != null ? ConfigErrors.positive(k + "account_max_rps", b.accountMaxRps)
                    : d.account() != null ? d.account().rateRps() : -1;
            if (base < 0) {
                throw ConfigErrors.invalid(k + "account_burst", "is set, but account_max_rps is not");
            }
            double burst = b.accountBurst != null ? ConfigErrors.positive(k + "account_burst", b.accountBurst)
                    : b.accountMaxRps != null ? twice(base) : d.account().burst();
            this.account = new BucketLimit(base, burst);
        }
        if (b.globalMaxRps == null) {
            if (b.globalBurst != null) {
                throw ConfigErrors.invalid(k + "global_burst", "is set, but global_max_rps is not");
            }
            this.global = null;
        } else {
            double rate = ConfigErrors.positive(k + "global_max_rps", b.globalMaxRps);
            double burst = b.globalBurst == null ? twice(rate) : ConfigErrors.positive(k + "global_burst", b.globalBurst);
            this.global = new BucketLimit(rate, burst);
        }
        this.maxConcurrency = b.maxConcurrency == null ? d.maxConcurrency()
                : ConfigErrors.atLeast(k + "max_concurrency", b.maxConcurrency, 1);
        this.breakerThreshold = b.breakerThreshold == null ? BuiltInRates.BREAKER_THRESHOLD
                : ConfigErrors.atLeast(k + "breaker_threshold", b.breakerThreshold, 1);
        this.breakerCooldownSeconds = orDefault(k + "breaker_cooldown_seconds", b.breakerCooldownSeconds,
                BuiltInRates.BREAKER_COOLDOWN_SECONDS);
        this.breakerMaxCooldownSeconds = orDefault(k + "breaker_max_cooldown_seconds", b.breakerMaxCooldownSeconds,
                Math.max(BuiltInRates.BREAKER_MAX_COOLDOWN_SECONDS, breakerCooldownSeconds));
        if (breakerMaxCooldownSeconds < breakerCooldownSeconds) {
            throw ConfigErrors.mustBe(k + "breaker_max_cooldown_seconds",
                    "at least breaker_cooldown_seconds (" + ConfigErrors.show(breakerCooldownSeconds) + ")",
                    breakerMaxCooldownSeconds);
        }
        this.breakerProbeTimeoutSeconds = orDefault(k + "breaker_probe_timeout_seconds", b.breakerProbeTimeoutSeconds,
                BuiltInRates.BREAKER_PROBE_TIMEOUT_SECONDS);
        this.slotLeaseSeconds = orDefault(k + "slot_lease_seconds", b.slotLeaseSeconds, BuiltInRates.SLOT_LEASE_SECONDS);
        this.retryBudget = b.retryBudget == null ? BuiltInRates.RETRY_BUDGET
                : ConfigErrors.atLeast(k + "retry_budget", b.retryBudget, 0);
        this.maxRetries = b.maxRetries == null ? BuiltInRates.MAX_RETRIES
                : ConfigErrors.atLeast(k + "max_retries", b.maxRetries, 0);
        this.maxBackoffSeconds = orDefault(k + "max_backoff_seconds", b.maxBackoffSeconds, BuiltInRates.MAX_BACKOFF_SECONDS);
        this.deadlineSeconds = orDefault(k + "deadline_seconds", b.deadlineSeconds, BuiltInRates.DEADLINE_SECONDS);
    }

    private static double orDefault(String key, Double v, double dflt) {
        return v == null ? dflt : ConfigErrors.positive(key, v);
    }

    private static double twice(double rate) {
        return Math.max(1.0, 2 * rate);
    }

    private static void checkServiceKey(String fullKey, String key) {
        int dot = key.indexOf('.');
        boolean ok = !key.isEmpty() && key.indexOf('/') < 0 && !key.isBlank()
                && (dot < 0 || (dot > 0 && dot < key.length() - 1 && key.indexOf('.', dot + 1) < 0));
        if (!ok) {
            throw ConfigErrors.mustBe(fullKey, "named <service> or <service>.<Operation>", key);
        }
    }

    /** The built-in limits of {@code provider} ({@code aws}, {@code azure} or {@code gcp}). */
    public static ProviderLimits defaults(String provider) {
        return builder(provider).build();
    }

    public static Builder builder(String provider) {
        if (BuiltInRates.of(provider) == null) {
            throw ConfigErrors.mustBe("provider", "one of aws, azure, gcp", provider);
        }
        return new Builder(provider);
    }

    // ---------------------------------------------------------------- resolution

    /**
     * Whether calls of {@code service}/{@code operation} have a bucket and breaker per operation.
     */
    public boolean isPerOperation(String service, String operation) {
        if (operation == null || service == null || BuiltInRates.AZURE.equals(provider)) {
            return false; // Azure throttles per subscription x resource provider: its leaves stop there
        }
        if (perOperation || (BuiltInRates.AWS.equals(provider) && "ec2".equals(service))) {
            return true;
        }
        if (operationEntry(service, operation) != null) {
            return true;
        }
        ServiceLimit s = lookup.get(service);
        return s != null && s.perOperation();
    }

    /** The {@code <service>.<Operation>} entry, or null; a string is built only for a service that has one. */
    private ServiceLimit operationEntry(String service, String operation) {
        return servicesWithOperations.contains(service) ? lookup.get(service + "." + operation) : null;
    }

    /** The limits of the leaf bucket that calls of {@code service}/{@code operation} use. */
    public LeafLimit leafLimit(String service, String operation) {
        ServiceLimit s = null;
        if (service != null && operation != null && !BuiltInRates.AZURE.equals(provider)) {
            s = operationEntry(service, operation);
        }
        if (s == null && service != null) {
            s = lookup.get(service);
        }
        if (s == null) {
            s = defaultLeaf;
        }
        return new LeafLimit(s.maxRps(), s.burst(), minRps, adaptive);
    }

    public String provider() { return provider; }
    public boolean enabled() { return enabled; }
    public boolean adaptive() { return adaptive; }
    public boolean perOperation() { return perOperation; }
    /** The leaf limits of a service without an entry of its own. */
    public ServiceLimit defaultLeaf() { return defaultLeaf; }
    /** The resolved service table: built-in entries with the user's merged in. */
    public Map<String, ServiceLimit> services() { return services; }
    /** Only the entries the user configured. */
    public Map<String, ServiceLimit> overrides() { return overrides; }
    /** The per-account bucket, or null when off. */
    public BucketLimit account() { return account; }
    /** The provider-wide bucket, or null when off. */
    public BucketLimit global() { return global; }
    public int maxConcurrency() { return maxConcurrency; }
    public double minRps() { return minRps; }
    public int breakerThreshold() { return breakerThreshold; }
    public double breakerCooldownSeconds() { return breakerCooldownSeconds; }
    public double breakerMaxCooldownSeconds() { return breakerMaxCooldownSeconds; }
    public double breakerProbeTimeoutSeconds() { return breakerProbeTimeoutSeconds; }
    public double slotLeaseSeconds() { return slotLeaseSeconds; }
    public int retryBudget() { return retryBudget; }
    public int maxRetries() { return maxRetries; }
    public double maxBackoffSeconds() { return maxBackoffSeconds; }
    public double deadlineSeconds() { return deadlineSeconds; }

    public long breakerCooldownNanos() { return nanos(breakerCooldownSeconds); }
    public long breakerMaxCooldownNanos() { return nanos(breakerMaxCooldownSeconds); }
    public long breakerProbeTimeoutNanos() { return nanos(breakerProbeTimeoutSeconds); }
    public long slotLeaseNanos() { return nanos(slotLeaseSeconds); }
    public long maxBackoffNanos() { return nanos(maxBackoffSeconds); }
    public long deadlineNanos() { return nanos(deadlineSeconds); }

    private static long nanos(double seconds) {
        return (long) (seconds * TimeUnit.SECONDS.toNanos(1));
    }

    @Override
    public String toString() {
        return "ProviderLimits{" + provider + ", enabled=" + enabled + ", adaptive=" + adaptive
                + ", default=" + defaultLeaf + ", account=" + account + ", global=" + global
                + ", max_concurrency=" + maxConcurrency + ", services=" + services + "}";
    }

    /** Builds {@link ProviderLimits}; null (the default for every setter) means "built-in". */
    public static final class Builder {
        private final String provider;
        private Boolean enabled;
        private Boolean adaptive;
        private Boolean perOperation;
        private Double maxRps;
        private Double burst;
        private Double accountMaxRps;
        private Double accountBurst;
        private Double globalMaxRps;
        private Double globalBurst;
        private Integer maxConcurrency;
        private Double minRps;
        private Integer breakerThreshold;
        private Double breakerCooldownSeconds;
        private Double breakerMaxCooldownSeconds;
        private Double breakerProbeTimeoutSeconds;
        private Double slotLeaseSeconds;
        private Integer retryBudget;
        private Integer maxRetries;
        private Double maxBackoffSeconds;
        private Double deadlineSeconds;
        private final Map<String, ServiceLimit> services = new LinkedHashMap<>();

        private Builder(String provider) {
            this.provider = provider;
        }

        public String provider() { return provider; }
        public Builder enabled(Boolean v) { enabled = v; return this; }
        public Builder adaptive(Boolean v) { adaptive = v; return this; }
        public Builder perOperation(Boolean v) { perOperation = v; return this; }
        public Builder maxRps(Double v) { maxRps = v; return this; }
        public Builder burst(Double v) { burst = v; return this; }
        public Builder accountMaxRps(Double v) { accountMaxRps = v; return this; }
        public Builder accountBurst(Double v) { accountBurst = v; return this; }
        public Builder globalMaxRps(Double v) { globalMaxRps = v; return this; }
        public Builder globalBurst(Double v) { globalBurst = v; return this; }
        public Builder maxConcurrency(Integer v) { maxConcurrency = v; return this; }
        public Builder minRps(Double v) { minRps = v; return this; }
        public Builder breakerThreshold(Integer v) { breakerThreshold = v; return this; }
        public Builder breakerCooldownSeconds(Double v) { breakerCooldownSeconds = v; return this; }
        public Builder breakerMaxCooldownSeconds(Double v) { breakerMaxCooldownSeconds = v; return this; }
        public Builder breakerProbeTimeoutSeconds(Double v) { breakerProbeTimeoutSeconds = v; return this; }
        public Builder slotLeaseSeconds(Double v) { slotLeaseSeconds = v; return this; }
        public Builder retryBudget(Integer v) { retryBudget = v; return this; }
        public Builder maxRetries(Integer v) { maxRetries = v; return this; }
        public Builder maxBackoffSeconds(Double v) { maxBackoffSeconds = v; return this; }
        public Builder deadlineSeconds(Double v) { deadlineSeconds = v; return this; }

        /** Adds or replaces the entry {@code key} ({@code <service>} or {@code <service>.<Operation>}). */
        public Builder service(String key, ServiceLimit limit) {
            if (limit == null) {
                throw ConfigErrors.mustBe("ratelimit." + provider + ".services." + key, "a mapping", null);
            }
            services.put(key, limit);
            return this;
        }

        public Builder service(String key, double maxRps, double burst) {
            return service(key, ServiceLimit.of(maxRps, burst));
        }

        public ProviderLimits build() {
            return new ProviderLimits(this);
        }
    }
}
