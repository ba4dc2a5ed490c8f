package io.cloudg;

import io.cloudg.config.AwsSettings;
import io.cloudg.config.AzureSettings;
import io.cloudg.aws.AwsCallShapes;
import io.cloudg.aws.AwsCatalog;
import io.cloudg.config.ConfigFile;
import io.cloudg.config.GcpSettings;
import io.cloudg.destination.OutputSettings;
import io.cloudg.resilience.config.ConfigErrors;
import io.cloudg.resilience.config.ConfigNode;
import io.cloudg.resilience.config.RateLimitConfig;
import io.cloudg.run.CallShapes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * cloudg's configuration: which providers to map, each provider's settings, the {@code ratelimit} block,
 * where to write the map and how many collector jobs run at once ({@code job_concurrency}). Immutable. Load it from YAML
 * ({@link #load(Path)}, {@link #fromYaml(String)}) or build it ({@link #builder()}). Unknown keys are
 * logged ({@code Unknown config key aws.regionz is ignored}) and ignored; wrong types and ranges fail the
 * load with the key and the value in the message.
 *
 * <pre>{@code
 * providers: [aws]
 * aws: {org: true, regions: all, role_name: OrganizationAccountAccessRole}
 * ratelimit: {aws: {services: {ec2.DescribeImageAttribute: {max_rps: 5, burst: 10}}}}
 * }</pre>
 */
public final class CloudGConfig {
    public static final Set<String> PROVIDERS = Set.of("aws", "azure", "gcp");
    /** {@code job_concurrency} not set: as many collector jobs at once as {@code ratelimit.max_calls_in_flight}. */
    private static final int AUTO = 0;

    private final List<String> providers;
    private final AwsSettings aws;
    private final AzureSettings azure;
    private final GcpSettings gcp;
    private final RateLimitConfig ratelimit;
    private final Path outputDir;
    private final int jobConcurrency;
    private final List<String> warnings;
    private final OutputSettings output;

    private CloudGConfig(Builder b) {
        this.providers = List.copyOf(b.providers);
        this.aws = b.aws;
        this.azure = b.azure;
        this.gcp = b.gcp;
        this.ratelimit = b.ratelimit;
        this.outputDir = b.outputDir;
        this.jobConcurrency = b.jobConcurrency;
        this.warnings = List.copyOf(b.warnings);
        this.output = b.output;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Reads a YAML file. A missing or unreadable file fails with its path in the message. */
    public static CloudGConfig load(Path file) {
        return from(ConfigFile.load(file));
    }

    public static CloudGConfig fromYaml(String yaml) {
        return from(ConfigFile.fromYaml(yaml));
    }

    /**
     * The engine's sections of {@code file}, each bound by its settings type ({@code ratelimit} by the
     * governor's); the other sections are their modules' to read. An {@code aws.collectors} or
     * {@code aws.exclude_collectors} entry must pick a collector of the catalog.
     */
    public static CloudGConfig from(ConfigFile file) {
        ConfigNode y = file.root();
        Builder b = builder();
        if (y.has("providers")) {
            List<String> p = y.strings("providers", List.of(), null, null);
            b.providers(p.toArray(String[]::new));
        }
        AwsSettings aws = AwsSettings.load(y.section("aws"));
        aws.collectors().forEach(s -> AwsCatalog.validate("aws.collectors", s));
        aws.excludeCollectors().forEach(s -> AwsCatalog.validate("aws.exclude_collectors", s));
        b.aws(aws);
        b.azure(AzureSettings.load(y.section("azure")));
        b.gcp(GcpSettings.load(y.section("gcp")));
        b.ratelimit(RateLimitConfig.from(y.section("ratelimit")));
        b.output(OutputSettings.load(y));
        String out = y.string("output_dir", null);
        if (out != null) {
            b.outputDir(Path.of(out));
        }
        Integer jobs = y.integer("job_concurrency", null, 1);
        Integer oldName = y.integer("workers", null, 1);
        if (oldName != null) {
            if (jobs != null) {
                throw ConfigErrors.invalid("workers", "is the old name of job_concurrency, which is set too: remove workers");
            }
            y.warn(ConfigErrors.renamedKey("workers", "job_concurrency"));
            jobs = oldName;
        }
        if (jobs != null) {
            b.jobConcurrency(jobs);
        }
        file.warnings().forEach(b::warning);
        return b.build();
    }

    /** The providers to map, in the order given. */
    public List<String> providers() { return providers; }
    public AwsSettings aws() { return aws; }
    public AzureSettings azure() { return azure; }
    public GcpSettings gcp() { return gcp; }
    public RateLimitConfig ratelimit() { return ratelimit; }
    public Path outputDir() { return outputDir; }

    /**
     * How this configuration's collector jobs' calls grow: the class path's shapes, with AWS's Cloud Control sweep
     * listing the types {@code aws.cloudcontrol_types} names (a run's call estimates and ETA count those).
     */
    public CallShapes callShapes() { return CallShapes.DEFAULTS.with(AwsCallShapes.of(aws)); }
    /**
     * Collector jobs run at once, each on a virtual thread ({@code job_concurrency}; {@code workers} is its old
     * name): what was set, else {@code ratelimit.max_calls_in_flight} (a job has one call in flight at a time but
     * for its per-item fan-out, so with as many jobs the governor's limits, not this, bound the calls in flight).
     */
    public int jobConcurrency() { return jobConcurrency != AUTO ? jobConcurrency : ratelimit.maxCallsInFlight(); }

    /** Whether {@code job_concurrency} was set (else {@link #jobConcurrency()} follows {@code ratelimit.max_calls_in_flight}). */
    public boolean jobConcurrencySet() { return jobConcurrency != AUTO; }
    /** How many runs to keep in the output directory, and the destinations written while a run streams. */
    public OutputSettings output() { return output; }
    /** The warnings the load logged (unknown keys). */
    public List<String> warnings() { return warnings; }

    public Builder toBuilder() {
        Builder b = new Builder();
        b.providers.addAll(providers);
        b.aws = aws;
        b.azure = azure;
        b.gcp = gcp;
        b.ratelimit = ratelimit;
        b.outputDir = outputDir;
        b.jobConcurrency = jobConcurrency;
        b.warnings.addAll(warnings);
        b.output = output;
        return b;
    }

    @Override
    public String toString() {
        return "CloudGConfig{providers=" + providers + ", " + aws + ", " + azure + ", " + gcp + ", out=" + outputDir
                + ", job_concurrency=" + (jobConcurrency == AUTO ? "auto" : Integer.toString(jobConcurrency)) + "}";
    }

    public static final class Builder {
        private final LinkedHashSet<String> providers = new LinkedHashSet<>();
        private AwsSettings aws = AwsSettings.DEFAULTS;
        private AzureSettings azure = AzureSettings.DEFAULTS;
        private GcpSettings gcp = GcpSettings.DEFAULTS;
        private RateLimitConfig ratelimit = RateLimitConfig.defaults();
        private Path outputDir = Path.of(".");
        private int jobConcurrency = AUTO;
        private final List<String> warnings = new ArrayList<>();
        private OutputSettings output = OutputSettings.DEFAULTS;

        /** Sets the providers to map (replacing any set before). */
        public Builder providers(String... names) {
            providers.clear();
            for (String n : names) {
                if (!PROVIDERS.contains(n)) {
                    throw ConfigErrors.mustBe("providers entry", "one of aws, azure, gcp", n);
                }
                providers.add(n);
            }
            return this;
        }

        public Builder aws(AwsSettings s) { this.aws = Objects.requireNonNull(s); return this; }
        public Builder aws(UnaryOperator<AwsSettings> edit) { this.aws = edit.apply(aws); return this; }
        public Builder azure(AzureSettings s) { this.azure = Objects.requireNonNull(s); return this; }
        public Builder azure(UnaryOperator<AzureSettings> edit) { this.azure = edit.apply(azure); return this; }
        public Builder gcp(GcpSettings s) { this.gcp = Objects.requireNonNull(s); return this; }
        public Builder gcp(UnaryOperator<GcpSettings> edit) { this.gcp = edit.apply(gcp); return this; }
        public Builder ratelimit(RateLimitConfig r) { this.ratelimit = Objects.requireNonNull(r); return this; }
        public Builder outputDir(Path p) { this.outputDir = Objects.requireNonNull(p); return this; }
        public Builder output(OutputSettings o) { this.output = Objects.requireNonNull(o); return this; }
        public Builder output(UnaryOperator<OutputSettings> edit) { this.output = edit.apply(output); return this; }

        public Builder jobConcurrency(int n) {
            if (n < 1) {
                throw ConfigErrors.mustBe("job_concurrency", "an integer >= 1", n);
            }
            this.jobConcurrency = n;
            return this;
        }

        public Builder warning(String w) {
            warnings.add(w);
            return this;
        }

        public CloudGConfig build() {
            return new CloudGConfig(this);
        }
    }
}
