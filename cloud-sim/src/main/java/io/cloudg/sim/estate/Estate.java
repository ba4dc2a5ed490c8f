package io.cloudg.sim.estate;

import io.cloudg.sim.config.AwsSpec;
import io.cloudg.sim.config.AzureSpec;
import io.cloudg.sim.config.EstateSpec;
import io.cloudg.sim.config.GcpSpec;
import io.cloudg.sim.core.AwsType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The whole simulated world, generated deterministically from a spec and a seed. */
public final class Estate {

    private final AwsEstate aws;
    private final AzureEstate azure;
    private final GcpEstate gcp;
    private final Timeline timeline;
    private final int generation;
    private final Truth truth;
    private volatile Findings findings;

    private Estate(AwsEstate aws, AzureEstate azure, GcpEstate gcp, Timeline timeline, int generation) {
        this.generation = generation;
        this.aws = aws;
        this.azure = azure;
        this.gcp = gcp;
        this.timeline = timeline;
        this.truth = new Truth(this::forEachAsset);
    }

    public static Estate generate(EstateSpec spec, long seed) {
        Ids ids = new Ids(seed);
        Timeline timeline = new Timeline();
        Churn churn = new Churn(spec.effectiveChurn(), ids);
        Generations gens = new Generations(spec.generation(), ids);
        return new Estate(generateAws(spec.aws(), ids, churn, gens, timeline),
            generateAzure(spec.azure(), ids, churn, gens, timeline), generateGcp(spec.gcp(), ids, churn, gens, timeline),
            timeline, spec.generation().number());
    }

    /** Which generation of the estate this is (0: as generated). */
    public int generation() {
        return generation;
    }

    /** The estate's time: listings show what exists at the timeline's moment. */
    public Timeline timeline() {
        return timeline;
    }

    public AwsEstate aws() {
        return aws;
    }

    public AzureEstate azure() {
        return azure;
    }

    public GcpEstate gcp() {
        return gcp;
    }

    public Truth truth() {
        return truth;
    }

    /** The security findings the AWS estate holds by construction (worked out on first use). */
    public Findings findings() {
        Findings f = findings;
        if (f == null) {
            f = buildFindings();
            findings = f;
        }
        return f;
    }

    // ---------------------------------------------------------------- AWS

    private static AwsEstate generateAws(AwsSpec spec, Ids ids, Churn churn, Generations gens, Timeline timeline) {
        String mgmt = spec.managementAccount() != null ? spec.managementAccount() : ids.digits("aws/management", 12);
        String org = spec.organizationId() != null ? spec.organizationId() : "o-" + ids.lowerAlnum("aws/org", 10);
        List<String> idsOf = new ArrayList<>();
        idsOf.add(mgmt);
        java.util.Set<String> used = new java.util.HashSet<>(List.of(mgmt));
        for (int i = 1; i < spec.accounts(); i++) {
            String id = ids.digits("aws/account/" + i, 12);
            for (int k = 0; !used.add(id); k++) {
                id = ids.digits("aws/account/" + i + "/" + k, 12);
            }
            idsOf.add(id);
        }
        Organization structure = Organization.generate(spec, ids, mgmt, org, idsOf);
        List<AwsAccount> accounts = new ArrayList<>();
        for (int i = 0; i < idsOf.size(); i++) {
            String id = idsOf.get(i);
            boolean m = i == 0;
            accounts.add(new AwsAccount(id, m ? "management" : String.format(Locale.ROOT, "member-%03d", i),
                m ? "aws+management@example.com" : String.format(Locale.ROOT, "aws+member-%03d@example.com", i), m,
                AwsGenerator.created(ids, "acct/" + i), structure.suspended().contains(id) ? AwsAccount.SUSPENDED
                : AwsAccount.ACTIVE, structure.parentOf().get(id), structure.regionsOf(id, spec.regions())));
        }
        AwsGenerator generator = new AwsGenerator(spec, ids, churn, gens);
        AwsSecurity.Plan plan = AwsSecurity.plan(spec.security(), ids, (type, each) -> {
            for (AwsAccount a : accounts) {
                if (a.suspended()) {
                    continue;
                }
                if (type.placement() == AwsType.Placement.REGIONAL) {
                    for (String region : a.regions()) {
                        generator.eligible(a.id(), region, type, each);
                    }
                } else {
                    generator.eligible(a.id(), AwsEstate.GLOBAL, type, each);
                }
            }
        });
        List<String> allRegions = new ArrayList<>(spec.regions());
        allRegions.addAll(spec.optInRegions().keySet());
        return new AwsEstate(org, accounts, allRegions, spec.roleName(), generator, timeline, plan, structure.units());
    }

    /** The organization's structure: its units, where each account sits, which are suspended, who enabled what. */
    private record Organization(List<AwsOrgUnit> units, Map<String, String> parentOf, java.util.Set<String> suspended,
                                Map<String, List<String>> optedIn) {

        List<String> regionsOf(String account, List<String> defaults) {
            List<String> r = new ArrayList<>(defaults);
            r.addAll(optedIn.getOrDefault(account, List.of()));
            return r;
        }

        static Organization generate(AwsSpec spec, Ids ids, String mgmt, String org, List<String> accounts) {
            String rootId = "r-" + ids.lowerAlnum("aws/root", 4);
            List<AwsOrgUnit> units = new ArrayList<>();
            units.add(new AwsOrgUnit(rootId, "Root", "Root", null, "arn:aws:organizations::" + mgmt + ":root/" + org + "/"
                + rootId));
            Map<String, AwsOrgUnit> byPath = new LinkedHashMap<>();
            byPath.put("Root", units.get(0));
            List<AwsOrgUnit> listed = new ArrayList<>();
            for (AwsSpec.OuSpec ou : spec.units()) {
                String path = "Root";
                for (String name : ou.path().split("/")) {
                    String parent = path;
                    path = path + "/" + name;
                    if (!byPath.containsKey(path)) {
                        String id = "ou-" + rootId.substring(2) + "-" + ids.lowerAlnum("aws/ou/" + path, 8);
                        AwsOrgUnit u = new AwsOrgUnit(id, name, path, byPath.get(parent).id(),
                            "arn:aws:organizations::" + mgmt + ":ou/" + org + "/" + id);
                        byPath.put(path, u);
                        units.add(u);
                    }
                }
                listed.add(byPath.get(path));
            }
            Map<String, String> parentOf = new LinkedHashMap<>();
            parentOf.put(accounts.get(0), rootId);
            boolean counted = spec.units().stream().anyMatch(u -> u.accounts() != null);
            int unit = 0;
            int leftInUnit = counted && !listed.isEmpty() ? spec.units().get(0).accounts() : 0;
            for (int i = 1; i < accounts.size(); i++) {
                String parent = rootId;
                if (!listed.isEmpty() && !counted) {
                    parent = listed.get((i - 1) % listed.size()).id();
                } else if (counted) {
                    while (unit < listed.size() && leftInUnit == 0) {
                        unit++;
                        leftInUnit = unit < listed.size() ? spec.units().get(unit).accounts() : 0;
                    }
                    if (unit < listed.size()) {
                        parent = listed.get(unit).id();
                        leftInUnit--;
                    }
                }
                parentOf.put(accounts.get(i), parent);
            }
            java.util.Set<String> suspended = new java.util.HashSet<>(lowestRanked(ids, "aws/suspended/",
                accounts.subList(1, accounts.size()), spec.suspendedAccounts()));
            Map<String, List<String>> optedIn = new LinkedHashMap<>();
            for (Map.Entry<String, Double> e : spec.optInRegions().entrySet()) {
                int k = io.cloudg.sim.config.SecuritySpec.selected(e.getValue(), accounts.size());
                for (String a : lowestRanked(ids, "aws/opt-in/" + e.getKey() + "/", accounts, k)) {
                    optedIn.computeIfAbsent(a, x -> new ArrayList<>()).add(e.getKey());
                }
            }
            return new Organization(List.copyOf(units), parentOf, suspended, optedIn);
        }

        /** The {@code k} accounts ranked lowest on a hash of the seed, the salt and the account id. */
        private static List<String> lowestRanked(Ids ids, String salt, List<String> accounts, int k) {
            if (k <= 0) {
                return List.of();
            }
            List<String> sorted = new ArrayList<>(accounts);
            Map<String, Long> rank = new java.util.HashMap<>();
            for (String a : accounts) {
                rank.put(a, ids.random(salt + a).nextLong());
            }
            sorted.sort(java.util.Comparator.comparingLong((String a) -> rank.get(a)).thenComparing(a -> a));
            return sorted.subList(0, Math.min(k, sorted.size()));
        }
    }

    // ---------------------------------------------------------------- Azure

    private static AzureEstate generateAzure(AzureSpec spec, Ids ids, Churn churn, Generations gens, Timeline timeline) {
        String tenant = spec.tenantId() != null ? spec.tenantId() : ids.uuid("azure/tenant");
        List<AzureSubscription> subs = new ArrayList<>();
        Map<String, List<AzureResourceGroup>> groups = new LinkedHashMap<>();
        Map<String, List<AzureResource>> resources = new LinkedHashMap<>();
        for (int s = 0; s < spec.subscriptions(); s++) {
            AzureSubscription sub = new AzureSubscription(ids.uuid("azure/subscription/" + s),
                String.format(Locale.ROOT, "sim-subscription-%02d", s + 1), tenant);
            subs.add(sub);
            List<AzureResourceGroup> rgs = new ArrayList<>();
            for (int g = 0; g < spec.resourceGroups(); g++) {
                rgs.add(new AzureResourceGroup(sub.id(), String.format(Locale.ROOT, "rg-sim-%02d", g + 1),
                    spec.locations().get(g % spec.locations().size())));
            }
            groups.put(sub.id(), List.copyOf(rgs));
            List<AzureResource> rs = new ArrayList<>();
            for (Map.Entry<String, Integer> e : spec.counts().entrySet()) {
                String type = e.getKey();
                for (Generations.Entry g : gens.of(e.getValue(), i -> azureResource(ids, sub, rgs.get(i % rgs.size()), type,
                    i, 0, Lifetime.ALWAYS, null).armId(), true, true)) {
                    int i = g.index();
                    AzureResourceGroup rg = rgs.get(i % rgs.size());
                    long ordinal = rs.size() * AwsGenerator.SPACING;
                    AzureResource r = azureResource(ids, sub, rg, type, i, ordinal, Lifetime.ALWAYS, g.env());
                    Lifetime sibling = churn.none() ? null : churn.sibling(r.armId());
                    if (!churn.none()) {
                        r = azureResource(ids, sub, rg, type, i, ordinal, churn.existing(r.armId()), g.env());
                    }
                    rs.add(r);
                    if (sibling != null) {
                        rs.add(azureResource(ids, sub, rg, type, Churn.SIBLING + i, ordinal + AwsGenerator.SPACING / 2,
                            sibling, null));
                    }
                }
            }
            rs.sort((x, y) -> Long.compare(x.ordinal(), y.ordinal()));
            resources.put(sub.id(), List.copyOf(rs));
        }
        return new AzureEstate(tenant, subs, groups, resources, spec.pageSize(), timeline);
    }

    private static AzureResource azureResource(Ids ids, AzureSubscription sub, AzureResourceGroup rg, String type, int i,
                                               long ordinal, Lifetime life, String env) {
        String leaf = type.substring(type.indexOf('/') + 1).toLowerCase(Locale.ROOT);
        String name = shortLeaf(leaf) + "-" + (i + 1) + "-" + ids.hex("azure/" + sub.id() + "/" + type + "/" + i, 6);
        return new AzureResource(sub.id(), rg.name(), type, name, rg.location(), ordinal, life, env);
    }

    private static String shortLeaf(String leaf) {
        String s = leaf.replaceAll("[aeiou]", "");
        return s.length() > 8 ? s.substring(0, 8) : s;
    }

    // ---------------------------------------------------------------- GCP

    private static GcpEstate generateGcp(GcpSpec spec, Ids ids, Churn churn, Generations gens, Timeline timeline) {
        String org = spec.organization() != null ? spec.organization() : ids.digits("gcp/org", 12);
        String orgName = "//cloudresourcemanager.googleapis.com/organizations/" + org;
        List<GcpAsset> orgAssets = List.of(new GcpAsset(GcpEstate.ORGANIZATION_TYPE, orgName, null, "global",
            "example.com", null, null, 0, Lifetime.ALWAYS, null));
        List<GcpProject> projects = new ArrayList<>();
        Map<String, List<GcpAsset>> assets = new LinkedHashMap<>();
        for (int p = 0; p < spec.projects(); p++) {
            GcpProject project = new GcpProject("sim-project-" + (p + 1) + "-" + ids.lowerAlnum("gcp/project/" + p, 4),
                Long.parseLong(ids.digits("gcp/project-number/" + p, 12)), "Sim project " + (p + 1));
            projects.add(project);
            List<GcpAsset> list = new ArrayList<>();
            String projectName = "//cloudresourcemanager.googleapis.com/projects/" + project.number();
            list.add(new GcpAsset(GcpEstate.PROJECT_TYPE, projectName, project, "global", project.id(), orgName,
                GcpEstate.ORGANIZATION_TYPE, 0, Lifetime.ALWAYS, null));
            for (Map.Entry<String, Integer> e : spec.counts().entrySet()) {
                for (Generations.Entry g : gens.of(e.getValue(), i -> gcpAsset(ids, project, projectName, e.getKey(), i,
                    spec.locations().get(i % spec.locations().size())).name(), true, true)) {
                    int i = g.index();
                    String region = spec.locations().get(i % spec.locations().size());
                    long ordinal = list.size() * AwsGenerator.SPACING;
                    GcpAsset a = gcpAsset(ids, project, projectName, e.getKey(), i, region).with(ordinal, Lifetime.ALWAYS)
                        .withEnv(g.env());
                    if (!churn.none()) {
                        Lifetime sibling = churn.sibling(a.name());
                        a = a.with(ordinal, churn.existing(a.name()));
                        if (sibling != null) {
                            list.add(gcpAsset(ids, project, projectName, e.getKey(), Churn.SIBLING + i, region)
                                .with(ordinal + AwsGenerator.SPACING / 2, sibling));
                        }
                    }
                    list.add(a);
                }
            }
            list.sort((x, y) -> Long.compare(x.ordinal(), y.ordinal()));
            assets.put(project.id(), List.copyOf(list));
        }
        return new GcpEstate(org, projects, assets, orgAssets, timeline);
    }

    private static GcpAsset gcpAsset(Ids ids, GcpProject p, String projectName, String type, int i, String region) {
        String service = type.substring(0, type.indexOf('/'));
        String kind = type.substring(type.indexOf('/') + 1);
        String n = kind.toLowerCase(Locale.ROOT) + "-" + (i + 1) + "-" + ids.lowerAlnum("gcp/" + p.id() + "/" + type + "/" + i, 4);
        String zone = region + "-" + (char) ('a' + (i % 3));
        String pid = p.id();
        String name;
        String location;
        switch (type) {
            case "compute.googleapis.com/Instance" -> { name = "//" + service + "/projects/" + pid + "/zones/" + zone + "/instances/" + n; location = zone; }
            case "compute.googleapis.com/Disk" -> { name = "//" + service + "/projects/" + pid + "/zones/" + zone + "/disks/" + n; location = zone; }
            case "compute.googleapis.com/Network" -> { name = "//" + service + "/projects/" + pid + "/global/networks/" + n; location = "global"; }
            case "compute.googleapis.com/Subnetwork" -> { name = "//" + service + "/projects/" + pid + "/regions/" + region + "/subnetworks/" + n; location = region; }
            case "storage.googleapis.com/Bucket" -> { n = pid + "-" + n; name = "//" + service + "/" + n; location = region; }
            case "iam.googleapis.com/ServiceAccount" -> {
                name = "//" + service + "/projects/" + pid + "/serviceAccounts/" + ids.digits("gcp/sa/" + pid + "/" + i, 21);
                location = "global";
            }
            case "pubsub.googleapis.com/Topic" -> { name = "//" + service + "/projects/" + pid + "/topics/" + n; location = "global"; }
            case "container.googleapis.com/Cluster" -> { name = "//" + service + "/projects/" + pid + "/locations/" + region + "/clusters/" + n; location = region; }
            case "sqladmin.googleapis.com/Instance" -> { name = "//cloudsql.googleapis.com/projects/" + pid + "/instances/" + n; location = region; }
            default -> {
                String plural = Character.toLowerCase(kind.charAt(0)) + kind.substring(1) + "s";
                name = "//" + service + "/projects/" + pid + "/locations/" + region + "/" + plural + "/" + n;
                location = region;
            }
        }
        return new GcpAsset(type, name, p, location, n, projectName, GcpEstate.PROJECT_TYPE, 0, Lifetime.ALWAYS, null);
    }

    // ---------------------------------------------------------------- truth

    private Findings buildFindings() {
        AwsSecurity s = aws.security();
        List<Findings.PublicBucket> buckets = new ArrayList<>();
        List<Findings.OpenSecurityGroup> groups = new ArrayList<>();
        List<Findings.UserWithoutMfa> users = new ArrayList<>();
        aws.forEachResource(r -> {
            if (!r.life().stable()) {
                return;
            }
            switch (r.type()) {
                case S3_BUCKET -> {
                    AwsSecurity.Bucket b = s.bucket(r);
                    if (b.isPublic()) {
                        buckets.add(new Findings.PublicBucket(r.account(), r.region(), r.id(), b.publicViaPolicy(),
                            b.publicViaAcl()));
                    }
                }
                case EC2_SECURITY_GROUP -> {
                    List<Integer> ports = List.copyOf(s.securityGroup(r).adminPortsOpenToAnywhere());
                    if (!ports.isEmpty()) {
                        groups.add(new Findings.OpenSecurityGroup(r.account(), r.region(), r.id(), r.name(), ports));
                    }
                }
                case IAM_USER -> {
                    if (s.exposedNow(r)) {
                        users.add(new Findings.UserWithoutMfa(r.account(), r.id()));
                    }
                }
                default -> {
                }
            }
        });
        return new Findings(buckets, groups, users);
    }

    /** The tags an estate generation gave a resource: {@code {env: gen-N}}, or none. */
    private static Map<String, String> tags(String env) {
        return env == null ? Map.of() : Map.of("env", env);
    }

    /** Every asset, provider by provider, account by account, with its churn (null when stable). */
    private void forEachAsset(java.util.function.Consumer<Asset> out) {
        aws.forEachResource(r -> out.accept(new Asset("aws", r.account(), r.region(), r.type().service(), r.type().cfnType(),
            r.id(), r.arn(), r.life().stable() ? null : r.life(), tags(r.env()))));
        for (AzureSubscription s : azure.subscriptions()) {
            out.accept(new Asset("azure", s.id(), "global", "Microsoft.Resources", "Microsoft.Resources/subscriptions",
                s.armId(), null));
            for (AzureResourceGroup g : azure.resourceGroups(s.id())) {
                out.accept(new Asset("azure", s.id(), g.location(), "Microsoft.Resources",
                    "Microsoft.Resources/resourceGroups", g.armId(), null));
            }
            for (AzureResource r : azure.resources(s.id())) {
                out.accept(new Asset("azure", s.id(), r.location(), r.namespace(), r.type(), r.armId(), null,
                    r.life().stable() ? null : r.life(), tags(r.env())));
            }
        }
        for (GcpAsset a : gcp.organizationAssets()) {
            out.accept(new Asset("gcp", "organizations/" + gcp.organization(), a.location(), a.service(), a.assetType(),
                a.name(), null));
        }
        for (GcpProject p : gcp.projects()) {
            for (GcpAsset a : gcp.assets(p)) {
                out.accept(new Asset("gcp", p.id(), a.location(), a.service(), a.assetType(), a.name(), null,
                    a.life().stable() ? null : a.life(), tags(a.env())));
            }
        }
    }
}
