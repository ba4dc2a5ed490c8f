package io.cloudg.sim;

import io.cloudg.sim.aws.AwsCall;
import io.cloudg.sim.aws.AwsCatalog;
import io.cloudg.sim.aws.AwsCredentials;
import io.cloudg.sim.aws.AwsFrontend;
import io.cloudg.sim.aws.AwsPrincipals;
import io.cloudg.sim.azure.AzureFrontend;
import io.cloudg.sim.config.EstateSpec;
import io.cloudg.sim.config.FaultSpec;
import io.cloudg.sim.config.NeighbourSpec;
import io.cloudg.sim.config.Realism;
import io.cloudg.sim.core.CallScope;
import io.cloudg.sim.core.Counters;
import io.cloudg.sim.estate.Findings;
import io.cloudg.sim.estate.Truth;
import io.cloudg.sim.gate.Gate;
import io.cloudg.sim.gate.QuotaPolicy;
import io.cloudg.sim.estate.Estate;
import io.cloudg.sim.fault.FaultEngine;
import io.cloudg.sim.gcp.GcpAssetService;
import io.cloudg.sim.gcp.GcpRestFrontend;
import io.cloudg.sim.gcp.GcpServer;
import io.cloudg.sim.http.HttpFrontend;
import io.cloudg.sim.http.SimRequest;
import io.cloudg.sim.http.SimResponse;
import io.cloudg.sim.paging.Pager;
import io.cloudg.sim.quota.Neighbour;
import io.cloudg.sim.quota.QuotaBook;
import java.net.URI;
import java.util.List;

/**
 * A running simulator. Start with {@link #start(SimOptions)}; close to stop.
 *
 * <p>Client recipes (the worker builds its clients the same way):
 * <ul>
 *   <li>AWS SDK v2: {@code endpointOverride(sim.awsEndpoint())}, an explicit region ({@code Region.AWS_GLOBAL}
 *       or any region for IAM, Organizations, Route 53, CloudFront), a {@code StaticCredentialsProvider} (any
 *       key acts as the management account, e.g. {@link #managementCredentials()} or {@code test}/{@code test};
 *       STS {@code AssumeRole} into {@code arn:aws:iam::MEMBER:role/OrganizationAccountAccessRole} gives keys
 *       acting as that member), {@code SdkAdvancedClientOption.DISABLE_HOST_PREFIX_INJECTION}, and for S3
 *       {@code forcePathStyle(true)} (and {@code crossRegionAccessEnabled(true)} to read buckets of other
 *       regions than the client's, which answer {@code PermanentRedirect} as in AWS).</li>
 *   <li>Azure SDK: see {@link io.cloudg.sim.azure} ({@link #azureSdkEndpoint()} in the environment, an http
 *       rewriting {@code HttpClient}, any static token).</li>
 *   <li>Cloud Asset: {@code ManagedChannelBuilder.forTarget(sim.gcpTarget()).usePlaintext()} with
 *       {@code NoCredentialsProvider}; parent {@code organizations/}{@link io.cloudg.sim.estate.GcpEstate#organization()}.
 *       Over REST: {@code AssetServiceSettings.newHttpJsonBuilder().setEndpoint(sim.gcpRestEndpoint().toString())}.</li>
 * </ul>
 *
 * <pre>
 * try (CloudSim sim = CloudSim.start(SimOptions.builder().estate(EstateSpec.defaultEstate()).build())) {
 *     Ec2Client ec2 = Ec2Client.builder().endpointOverride(sim.awsEndpoint()).region(Region.US_EAST_1)
 *         .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
 *         .build();
 *     ...
 * }
 * </pre>
 */
public final class CloudSim implements AutoCloseable {
    private final SimOptions options;
    private final long seed;
    private final Estate estate;
    private final Counters counters = new Counters();
    private final QuotaBook quotas;
    private final FaultEngine faults;
    private final AwsPrincipals principals;
    private final HttpFrontend http;
    private final GcpServer gcp;
    private final String host;

    private CloudSim(SimOptions options) throws InterruptedException {
        this.options = options;
        this.seed = options.effectiveSeed();
        EstateSpec spec = options.estate();
        this.estate = Estate.generate(spec, seed);
        estate.timeline().start(options.clock());
        List<NeighbourSpec> neighbours = spec.neighbours();
        this.quotas = new QuotaBook(options.clock(), spec.quotas().enforcing(),
            scope -> neighbour(neighbours, scope, spec.realism()), seed);
        this.faults = new FaultEngine(options.faults(), options.clock(), seed);
        Gate gate = new Gate(quotas, faults, spec.latency(), spec.latency().perItem(spec.realism()), seed, counters);
        QuotaPolicy policy = new QuotaPolicy(spec.quotas());
        this.principals = new AwsPrincipals(estate.aws(), seed);
        Pager pager = new Pager(spec.listings().effective(spec.realism()), seed);
        AwsFrontend aws = new AwsFrontend(new AwsCatalog(), new AwsCall.AwsContext(estate.aws(), principals,
            options.clock(), pager), gate, policy, seed);
        AzureFrontend azure = new AzureFrontend(estate.azure(), gate, policy, pager);
        AdminService admin = new AdminService(this);
        this.host = options.host();
        this.gcp = new GcpServer(options.host(), options.gcpPort(),
            timer -> new GcpAssetService(estate.gcp(), gate, policy, options.clock(), timer, spec.gcp().consumerProject(), pager));
        GcpRestFrontend gcpRest = new GcpRestFrontend(gcp.service());
        try {
            this.http = new HttpFrontend(options.host(), options.port(), options.httpThreads(),
                req -> route(req, admin, aws, azure, gcpRest), counters.inFlight());
        } catch (RuntimeException | InterruptedException e) {
            gcp.close();
            throw e;
        }
    }

    /** Starts a simulator; it serves until {@link #close()}. */
    public static CloudSim start(SimOptions options) {
        try {
            return new CloudSim(options);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting cloud-sim", e);
        }
    }

    private SimResponse route(SimRequest req, AdminService admin, AwsFrontend aws, AzureFrontend azure,
                              GcpRestFrontend gcpRest) {
        counters.request();
        if (req.path().startsWith("/_sim/")) {
            return admin.handle(req);
        }
        if (GcpRestFrontend.claims(req)) {
            return gcpRest.handle(req);
        }
        if (AzureFrontend.claims(req)) {
            return azure.handle(req);
        }
        return aws.handle(req);
    }

    private static Neighbour neighbour(List<NeighbourSpec> neighbours, CallScope scope, Realism realism) {
        for (NeighbourSpec n : neighbours) {
            if (n.match().matches(scope)) {
                return n.load(realism);
            }
        }
        return Neighbour.NONE;
    }

    /** {@code http://127.0.0.1:PORT}: every AWS service and region. */
    public URI awsEndpoint() {
        return URI.create("http://" + host + ":" + http.port());
    }

    /**
     * {@code http://127.0.0.1:PORT}: Azure ARM and Resource Graph, as served (for curl and plain clients).
     * The Azure SDK needs {@link #azureSdkEndpoint()} instead.
     */
    public URI azureEndpoint() {
        return URI.create("http://" + host + ":" + http.port());
    }

    /**
     * {@code https://127.0.0.1:PORT}: the ARM endpoint to put in the Azure SDK's {@code AzureEnvironment}; the
     * client's {@code HttpClient} must send it as http (see {@link io.cloudg.sim.azure}).
     */
    public URI azureSdkEndpoint() {
        return URI.create("https://" + host + ":" + http.port());
    }

    /** The Azure tenant id of the estate. */
    public String azureTenantId() {
        return estate.azure().tenantId();
    }

    /** {@code 127.0.0.1:PORT}: plaintext gRPC target for the Cloud Asset client. */
    public String gcpTarget() {
        return host + ":" + gcp.port();
    }

    /**
     * {@code http://127.0.0.1:PORT}: Cloud Asset's REST (JSON) endpoint, the HTTP port, for the clients' REST
     * transport ({@code AssetServiceSettings.newHttpJsonBuilder().setEndpoint(...)}) and plain HTTP clients:
     * {@code GET /v1/projects/P/assets}, {@code GET /v1/organizations/N:searchAllResources}. Same estate, quotas and
     * faults as {@link #gcpTarget()}.
     */
    public URI gcpRestEndpoint() {
        return URI.create("http://" + host + ":" + http.port());
    }

    /** The HTTP port. */
    public int port() {
        return http.port();
    }

    /** The seed the estate was generated from. */
    public long seed() {
        return seed;
    }

    public Estate estate() {
        return estate;
    }

    public Truth truth() {
        return estate.truth();
    }

    /** Which generation of the estate is served ({@code generation:} in the estate file). */
    public int generation() {
        return estate.generation();
    }

    /**
     * What changed from generation {@code from} to the one served: assets added, removed and modified (which
     * fields). Also {@code GET /_sim/changes?from=K}.
     */
    public Changes changes(int from) {
        if (from < 0) {
            throw new IllegalArgumentException("a generation is not negative: " + from);
        }
        Estate older = Estate.generate(options.estate().withGeneration(from), seed);
        return Changes.between(older.truth(), from, estate.truth(), estate.generation());
    }

    /** What changed from the generation before the one served (generation 0: nothing). */
    public Changes changes() {
        return changes(Math.max(0, estate.generation() - 1));
    }

    /**
     * The AWS organization's structure: units, where each account sits, its status and enabled regions. Also
     * the {@code organization} field of {@code GET /_sim/truth}.
     */
    public Organization organization() {
        return Organization.of(estate.aws());
    }

    /**
     * The security findings the AWS estate holds by construction (public buckets, security groups open on
     * SSH/RDP, users without MFA): what a correct scanner reports. Also served at {@code GET /_sim/findings}.
     */
    public Findings findings() {
        return estate.findings();
    }

    public SimStats stats() {
        return new SimStats(quotas.snapshot(), counters.snapshot(), counters.inFlight().snapshot());
    }

    /** Replaces the fault rules (counts start afresh). */
    public void setFaults(FaultSpec spec) {
        faults.set(spec);
    }

    /**
     * Credentials acting as the organization's management account. Any access key id the simulator's STS
     * did not issue does the same; these are just a printable default.
     */
    public AwsCredentials managementCredentials() {
        return principals.managementCredentials();
    }

    public SimOptions options() {
        return options;
    }

    @Override
    public void close() {
        try {
            http.close();
        } finally {
            gcp.close();
        }
    }
}
