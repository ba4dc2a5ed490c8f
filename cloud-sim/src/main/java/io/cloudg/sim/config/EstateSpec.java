package io.cloudg.sim.config;

import io.cloudg.sim.core.AwsType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything the estate file says. Immutable; {@code with*} methods return changed copies.
 *
 * <pre>
 * seed: 42
 * aws:
 *   accounts: 3                       # management account included
 *   regions: [us-east-1, eu-west-1]
 *   role_name: OrganizationAccountAccessRole
 *   resources: {AWS::EC2::VPC: 2, AWS::EC2::Image: 3, AWS::IAM::Role: 2}
 *   security: {public_bucket_share: 0.25, open_security_group_share: 0.25, users_without_mfa_share: 0.5}
 * azure: {subscriptions: 2, locations: [eastus], resource_groups: 2,
 *         resources: {Microsoft.Compute/virtualMachines: 2}, page_size: 100}
 * gcp: {organization: "123456789012", projects: 3, locations: [us-central1],
 *       resources: {compute.googleapis.com/Instance: 2}}
 * quotas: {enabled: true, aws: {services: {ec2.DescribeImageAttribute: {rate: 5, burst: 10}}}}
 * noisy_neighbours: [{match: {provider: aws, service: ec2}, share: 0.5}]
 * latency: {base: 2ms, jitter: 3ms, per_item: 0.5ms}
 * realism: strict                     # or lenient (the default)
 * listings: {short_pages: 0.1, empty_pages: 0.05, tokens: opaque}
 * churn: {created: 0.02, deleted: 0.02, from: 0s, until: 2m}
 * generation: 1                       # and generation_changes: {added: 0.05, removed: 0.05, modified: 0.1}
 * </pre>
 *
 * @param seed       seed from the file (null: the simulator's option or default decides)
 * @param realism    how closely the providers are imitated ({@code realism: strict|lenient}; lenient by default)
 * @param neighbours noisy neighbours
 * @param listings   how listings page (null values: the profile's defaults)
 * @param churn      resources created and deleted while a map runs; null: the profile's default
 * @param generation which generation of the estate is served, and how generations differ
 */
public record EstateSpec(Long seed, Realism realism, AwsSpec aws, AzureSpec azure, GcpSpec gcp, QuotaSpec quotas,
                         List<NeighbourSpec> neighbours, LatencySpec latency, ListingSpec listings, ChurnSpec churn,
                         GenerationSpec generation) {

    public EstateSpec {
        neighbours = List.copyOf(neighbours);
        realism = realism == null ? Realism.LENIENT : realism;
        quotas = quotas == null ? QuotaSpec.defaults(realism) : quotas.withRealism(realism);
        latency = latency == null ? LatencySpec.NONE : latency;
        listings = listings == null ? ListingSpec.DEFAULT : listings;
        generation = generation == null ? GenerationSpec.FIRST : generation;
    }

    /** An estate with the profile's listings and churn, generation 0. */
    public EstateSpec(Long seed, AwsSpec aws, AzureSpec azure, GcpSpec gcp, QuotaSpec quotas,
                      List<NeighbourSpec> neighbours, LatencySpec latency) {
        this(seed, Realism.LENIENT, aws, azure, gcp, quotas, neighbours, latency, ListingSpec.DEFAULT, null, null);
    }

    /** The small demo estate: 3 AWS accounts in 2 regions, 2 Azure subscriptions, 3 GCP projects. */
    public static EstateSpec defaultEstate() {
        Map<AwsType, Integer> counts = new EnumMap<>(AwsType.class);
        for (AwsType t : AwsType.values()) {
            if (t.countable()) {
                counts.put(t, 2);
            }
        }
        counts.put(AwsType.EC2_SUBNET, 4);
        counts.put(AwsType.EC2_INSTANCE, 3);
        counts.put(AwsType.EC2_IMAGE, 3);
        counts.put(AwsType.EC2_NETWORK_INTERFACE, 3);
        counts.put(AwsType.EC2_VOLUME, 3);
        return new EstateSpec(null,
            new AwsSpec(3, null, null, List.of("us-east-1", "eu-west-1"), AwsSpec.DEFAULT_ROLE, counts),
            defaultAzure(2, 2),
            defaultGcp(3, 2),
            QuotaSpec.defaults(), List.of(), LatencySpec.NONE);
    }

    /**
     * A large estate for benchmarks: {@code accounts} AWS accounts over {@code regions}, {@code perType}
     * resources of every AWS type per account x region (or per account for global types), and Azure and GCP
     * scaled to a tenth of the accounts.
     */
    public static EstateSpec generated(int accounts, List<String> regions, int perType) {
        return generated(accounts, regions, AwsSpec.uniformCounts(perType));
    }

    /** A large estate with the given AWS counts per account x region. */
    public static EstateSpec generated(int accounts, List<String> regions, Map<AwsType, Integer> counts) {
        if (accounts < 1) {
            throw new IllegalArgumentException("accounts must be positive: " + accounts);
        }
        int other = Math.max(1, accounts / 10);
        return new EstateSpec(null,
            new AwsSpec(accounts, null, null, regions, AwsSpec.DEFAULT_ROLE, counts),
            defaultAzure(other, 3), defaultGcp(other, 3),
            QuotaSpec.defaults(), List.of(), LatencySpec.NONE);
    }

    private static AzureSpec defaultAzure(int subscriptions, int perType) {
        Map<String, Integer> az = new LinkedHashMap<>();
        for (String t : List.of("Microsoft.Compute/virtualMachines", "Microsoft.Compute/disks",
            "Microsoft.Network/virtualNetworks", "Microsoft.Network/networkInterfaces",
            "Microsoft.Network/networkSecurityGroups", "Microsoft.Storage/storageAccounts",
            "Microsoft.KeyVault/vaults", "Microsoft.Web/sites", "Microsoft.Sql/servers")) {
            az.put(t, perType);
        }
        return new AzureSpec(subscriptions, null, List.of("eastus", "westeurope"), 2, az, 100);
    }

    private static GcpSpec defaultGcp(int projects, int perType) {
        Map<String, Integer> g = new LinkedHashMap<>();
        for (String t : List.of("compute.googleapis.com/Instance", "compute.googleapis.com/Disk",
            "compute.googleapis.com/Network", "compute.googleapis.com/Subnetwork", "storage.googleapis.com/Bucket",
            "iam.googleapis.com/ServiceAccount", "pubsub.googleapis.com/Topic",
            "container.googleapis.com/Cluster", "sqladmin.googleapis.com/Instance")) {
            g.put(t, perType);
        }
        return new GcpSpec(null, projects, List.of("us-central1", "europe-west1"), g);
    }

    public static EstateSpec load(Path file) {
        try {
            return fromYaml(Files.readString(file));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read estate file " + file, e);
        }
    }

    /** Reads an estate file; sections left out keep the {@link #defaultEstate()} values. */
    public static EstateSpec fromYaml(String yaml) {
        SpecNode root = SpecNode.parse("estate", yaml);
        EstateSpec d = defaultEstate();
        if (!root.present()) {
            return d;
        }
        root.onlyKeys("seed", "realism", "aws", "azure", "gcp", "quotas", "noisy_neighbours", "latency", "listings",
            "churn", "generation", "generation_changes");
        Realism realism = Realism.read(root.get("realism"));
        List<NeighbourSpec> neighbours = new ArrayList<>();
        for (SpecNode item : root.get("noisy_neighbours").items()) {
            neighbours.add(NeighbourSpec.read(item));
        }
        Long seed = root.get("seed").present() ? root.get("seed").longValue(0) : null;
        return new EstateSpec(seed, realism, AwsSpec.read(root.get("aws"), d.aws()),
            AzureSpec.read(root.get("azure"), d.azure()), GcpSpec.read(root.get("gcp"), d.gcp()),
            QuotaSpec.read(root.get("quotas"), realism), neighbours, LatencySpec.read(root.get("latency")),
            ListingSpec.read(root.get("listings")), ChurnSpec.read(root.get("churn")),
            GenerationSpec.read(root.get("generation"), root.get("generation_changes")));
    }

    /** The churn in effect (the file's, else the profile's default). */
    public ChurnSpec effectiveChurn() {
        return ChurnSpec.effective(churn, realism);
    }

    /** The same estate under another profile (what the file set explicitly is kept). */
    public EstateSpec withRealism(Realism r) {
        return new EstateSpec(seed, r, aws, azure, gcp, quotas, neighbours, latency, listings, churn, generation);
    }

    /** The same estate at generation {@code n} (the same change shares). */
    public EstateSpec withGeneration(int n) {
        return new EstateSpec(seed, realism, aws, azure, gcp, quotas, neighbours, latency, listings, churn,
            generation.withNumber(n));
    }

    public EstateSpec withGeneration(GenerationSpec g) {
        return new EstateSpec(seed, realism, aws, azure, gcp, quotas, neighbours, latency, listings, churn, g);
    }

    public EstateSpec withListings(ListingSpec l) {
        return new EstateSpec(seed, realism, aws, azure, gcp, quotas, neighbours, latency, l, churn, generation);
    }

    public EstateSpec withChurn(ChurnSpec c) {
        return new EstateSpec(seed, realism, aws, azure, gcp, quotas, neighbours, latency, listings, c, generation);
    }

    public EstateSpec withAws(AwsSpec a) {
        return new EstateSpec(seed, realism, a, azure, gcp, quotas, neighbours, latency, listings, churn, generation);
    }

    public EstateSpec withAzure(AzureSpec a) {
        return new EstateSpec(seed, realism, aws, a, gcp, quotas, neighbours, latency, listings, churn, generation);
    }

    public EstateSpec withGcp(GcpSpec g) {
        return new EstateSpec(seed, realism, aws, azure, g, quotas, neighbours, latency, listings, churn, generation);
    }

    public EstateSpec withQuotas(QuotaSpec q) {
        return new EstateSpec(seed, realism, aws, azure, gcp, q, neighbours, latency, listings, churn, generation);
    }

    public EstateSpec withNeighbours(List<NeighbourSpec> n) {
        return new EstateSpec(seed, realism, aws, azure, gcp, quotas, n, latency, listings, churn, generation);
    }

    public EstateSpec withLatency(LatencySpec l) {
        return new EstateSpec(seed, realism, aws, azure, gcp, quotas, neighbours, l, listings, churn, generation);
    }
}
