package io.cloudg.aws;

import io.cloudg.collect.CollectionTask;
import io.cloudg.collect.CollectorJob;
import io.cloudg.collect.Coverage;
import io.cloudg.config.AwsSettings;
import io.cloudg.inventory.Asset;
import io.cloudg.inventory.CoverageRecord;
import io.cloudg.inventory.CoverageStatus;
import io.cloudg.inventory.SkippedAccount;
import io.cloudg.inventory.ServiceCoverage;
import io.cloudg.resilience.spi.ErrorClass;
import io.cloudg.resilience.TaskLedger;
import io.cloudg.run.ProviderPlan;
import io.cloudg.run.Endpoints;
import io.cloudg.run.EstateKeys;
import io.cloudg.config.StartupException;
import io.cloudg.run.TaskTarget;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.ProfileCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.cloudcontrol.CloudControlClient;
import software.amazon.awssdk.services.cloudcontrol.model.ResourceDescription;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.model.Region;
import software.amazon.awssdk.services.organizations.OrganizationsClient;
import software.amazon.awssdk.services.organizations.model.Account;
import software.amazon.awssdk.services.organizations.model.OrganizationalUnit;
import software.amazon.awssdk.services.resourcegroupstaggingapi.ResourceGroupsTaggingApiClient;
import software.amazon.awssdk.services.resourcegroupstaggingapi.model.ResourceTagMapping;
import software.amazon.awssdk.services.sts.StsClient;
import software.amazon.awssdk.services.sts.auth.StsAssumeRoleCredentialsProvider;
import software.amazon.awssdk.services.sts.model.AssumeRoleRequest;
import software.amazon.awssdk.services.sts.model.GetCallerIdentityRequest;

/**
 * Plans an AWS map: who am I (STS), which accounts (Organizations, or the configured list), which regions
 * (DescribeRegions, or the configured list), then one task per account x region with the regional
 * collectors and the two sweeps, and one per account for the global services. Every discovery call is
 * governed like any other; a discovery step that fails is recorded in coverage and the map goes on with
 * what it has.
 */
public final class AwsProvider {
    private static final Logger LOG = LoggerFactory.getLogger("cloudg.aws");

    /** Jobs that are not catalog collectors. */
    public static final Set<String> SWEEPS = Set.of("cloudcontrol", "tagging", "accounts");

    /**
     * Cloud Control sweep defaults: types no deep collector covers (a type that gains a collector leaves this
     * list by itself, so the sweep never lists a resource twice).
     */
    public static final List<String> DEFAULT_CLOUDCONTROL_TYPES = List.of("AWS::Events::Rule",
            "AWS::StepFunctions::StateMachine", "AWS::Kinesis::Stream", "AWS::Glue::Database",
            "AWS::Athena::WorkGroup", "AWS::Backup::BackupVault", "AWS::SNS::Subscription", "AWS::EMR::Cluster",
            "AWS::IoT::Thing", "AWS::Amplify::App", "AWS::AppRunner::Service", "AWS::MemoryDB::Cluster",
            "AWS::Timestream::Database", "AWS::Lightsail::Instance", "AWS::DataSync::Task", "AWS::ServiceCatalog::Portfolio")
            .stream().filter(t -> !AwsCatalog.coveredTypes().contains(t)).toList();

    /** The types the Cloud Control sweep lists: {@code aws.cloudcontrol_types}, or the defaults when it names none. */
    public static List<String> cloudControlTypes(AwsSettings settings) {
        return settings.cloudControlTypes().isEmpty() ? DEFAULT_CLOUDCONTROL_TYPES : settings.cloudControlTypes();
    }

    /** ARN service:resource-type pairs the deep collectors already list; the tagging sweep skips them. */
    static final Set<String> COVERED_ARN_TYPES = AwsCatalog.coveredArnTypes();

    /** The job that lists the organization's accounts from what discovery found (no call of its own). */
    public static final String ACCOUNTS_JOB = "accounts";

    private final AwsSettings settings;
    private final AwsClients clients;
    private final Coverage coverage;
    private final Map<String, AwsAccount> replanned = new ConcurrentHashMap<>();
    private volatile String managementAccountId;

    public AwsProvider(AwsSettings settings, AwsClients clients) {
        this.settings = settings;
        this.clients = clients;
        this.coverage = Coverage.of(clients.governor());
    }

    /** The management account's own credentials. */
    AwsCredentialsProvider managementCredentials() {
        if (settings.accessKeyId() != null) {
            return StaticCredentialsProvider.create(settings.sessionToken() == null
                    ? AwsBasicCredentials.create(settings.accessKeyId(), settings.secretAccessKey())
                    : AwsSessionCredentials.create(settings.accessKeyId(), settings.secretAccessKey(), settings.sessionToken()));
        }
        if (settings.profile() != null) {
            return ProfileCredentialsProvider.create(settings.profile());
        }
        return DefaultCredentialsProvider.builder().build();
    }

    /**
     * Discovers the estate and plans its tasks. Throws {@link StartupException} if not even STS answers, and a
     * {@link io.cloudg.resilience.config.ConfigException} for an organizational unit the organization does not have.
     */
    public ProviderPlan plan() {
        if (settings.scopedByUnits() && !settings.org()) {
            throw io.cloudg.resilience.config.ConfigErrors.mustBe(settings.organizationalUnits().isEmpty()
                    ? "aws.exclude_organizational_units" : "aws.organizational_units",
                    "used with aws.org: true (or --org): units are read from AWS Organizations",
                    settings.organizationalUnits().isEmpty() ? settings.excludeOrganizationalUnits() : settings.organizationalUnits());
        }
        AwsAccount management = identify();
        List<ServiceCoverage> found = new ArrayList<>();
        List<CoverageRecord> discovery = new ArrayList<>();
        Organization organization = settings.org() ? organization(management, found) : Organization.NONE;
        List<SkippedAccount> skipped = new ArrayList<>();
        Map<String, AwsAccount> accounts = accounts(management, organization, skipped);
        Map<String, List<String>> regions = regions(management, accounts.values(), found, discovery);
        LOG.info("AWS: {} account(s) to map{}, {} account x region(s)", accounts.size(),
                skipped.isEmpty() ? "" : " (" + skipped.size() + " skipped: " + reasons(skipped) + ")",
                regions.values().stream().mapToInt(List::size).sum());
        List<CollectionTask> tasks = planTasks(management, accounts.values(), organization, regions);
        if (!found.isEmpty()) {
            discovery.add(0, new CoverageRecord("aws", management.id(), "discovery", found));
        }
        return new ProviderPlan("aws", tasks, discovery, skipped);
    }

    private static String reasons(List<SkippedAccount> skipped) {
        Map<String, Integer> n = new java.util.TreeMap<>();
        skipped.forEach(s -> n.merge(s.reason(), 1, Integer::sum));
        StringBuilder b = new StringBuilder();
        n.forEach((r, c) -> b.append(b.length() == 0 ? "" : ", ").append(c).append(' ').append(r));
        return b.toString();
    }

    /** The most the first call (STS GetCallerIdentity) may take, retries included. */
    static final java.time.Duration IDENTITY_TIMEOUT = java.time.Duration.ofSeconds(10);

    /** One short line for a failed identity call: what to set, not the SDK's whole credential chain. */
    private String identityFailure(Throwable e) {
        String m = oneLine(e);
        if (m.contains("Unable to load credentials")) {
            return "AWS: no credentials found: set aws.access_key_id and aws.secret_access_key (or aws.profile, or "
                    + "AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY / AWS_PROFILE); `cloudg sim` prints the keys it accepts";
        }
        if (settings.profile() != null && ssoTokenProblem(e)) {
            return "AWS: the SSO session of profile " + settings.profile() + " has no valid token (" + shorten(m)
                    + "): run `aws sso login --profile " + settings.profile() + "`";
        }
        return "AWS: cannot tell who we are (STS GetCallerIdentity failed: " + shorten(m) + "); check the credentials"
                + (settings.endpointUrl() == null ? "" : " and aws.endpoint_url " + settings.endpointUrl());
    }

    /** Whether the credentials failed on the SSO token cache (a profile whose {@code aws sso login} expired or never ran). */
    static boolean ssoTokenProblem(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            String m = t.getMessage() == null ? "" : t.getMessage();
            if (m.contains("SSO") || m.contains("sso") || t.getClass().getName().contains(".sso")) {
                return m.contains("token") || m.contains("Token") || m.contains("cache") || m.contains("expired")
                        || m.contains("login");
            }
        }
        return false;
    }

    private static String shorten(String m) {
        return m.length() > 200 ? m.substring(0, 200) + "..." : m;
    }

    /** Who the configured credentials are (STS GetCallerIdentity): the management account. */
    private AwsAccount identify() {
        if (settings.endpointUrl() != null) {
            Endpoints.requireReachable("aws.endpoint_url", settings.endpointUrl());
        }
        AwsCredentialsProvider creds = managementCredentials();
        AwsAccount probe = new AwsAccount("self", null, creds, true);
        String managementId;
        try {
            // bounded: a network that answers nothing fails the start within IDENTITY_TIMEOUT, not after every retry
            AccountClient<StsClient> sts = clients.client(StsClient.class, probe, settings.defaultRegion());
            managementId = sts.client().getCallerIdentity(sts.as(GetCallerIdentityRequest.builder()
                    .overrideConfiguration(o -> o.apiCallTimeout(IDENTITY_TIMEOUT)).build())).account();
        } catch (SdkException | IllegalStateException e) {
            throw new StartupException(identityFailure(e), e);
        }
        managementAccountId = managementId;
        LOG.info("AWS: management account {}", managementId);
        // every call from here on (the organization, each account's regions) keeps its learned state as this estate's
        EstateKeys.tell(clients.governor(), "aws", EstateKeys.aws(managementId, settings.endpointUrl()));
        return new AwsAccount(managementId, null, creds, true);
    }

    /**
     * What discovery read of the organization: every account (suspended ones too) and, when the map is scoped
     * by organizational unit, its tree.
     *
     * @param listed whether ListAccounts answered (else only the management account is known)
     * @param tree the units and where each account sits; null when not read (not scoped by unit, or it failed)
     */
    record Organization(List<Account> accounts, boolean listed, OrgTree tree) {
        static final Organization NONE = new Organization(List.of(), false, null);
    }

    /**
     * The organization's accounts (Organizations ListAccounts, suspended ones included) and, when the map is
     * scoped by organizational unit, its tree; each outcome is an entry of {@code found}. A listing that
     * fails maps the management account only; a tree that cannot be read maps no account (scoping could not
     * be honoured).
     */
    private Organization organization(AwsAccount management, List<ServiceCoverage> found) {
        List<Account> orgAccounts = new ArrayList<>();
        boolean listed = false;
        TaskLedger ledger = ledger("aws/" + management.id() + "/global/organizations");
        try (TaskLedger.Binding b = ledger.bind()) {
            AccountClient<OrganizationsClient> org = clients.client(OrganizationsClient.class, management, settings.defaultRegion());
            for (Account a : each(org.client().listAccountsPaginator(r -> r.overrideConfiguration(org.override())).stream()
                    .flatMap(pg -> pg.accounts().stream()))) {
                orgAccounts.add(a);
            }
            found.add(ledger.incompleteReason()
                    .map(r -> new ServiceCoverage("organizations", CoverageStatus.PARTIAL, orgAccounts.size(), r))
                    .orElse(ServiceCoverage.success("organizations", orgAccounts.size())));
            listed = true;
        } catch (RuntimeException e) {
            found.add(new ServiceCoverage("organizations", CoverageStatus.FAILED, orgAccounts.size(), coverage.errorText(e, ledger)));
            LOG.warn("AWS: listing the organization's accounts failed, mapping the management account only: {}", oneLine(e));
            orgAccounts.clear();
        }
        OrgTree tree = settings.scopedByUnits() && listed ? tree(management, found) : null;
        return new Organization(List.copyOf(orgAccounts), listed, tree);
    }

    /**
     * The organization's tree, walked from the root: ListRoots, then per unit ListOrganizationalUnitsForParent
     * and ListAccountsForParent (two calls and their pages per unit). Null when a call fails; the outcome is
     * the {@code organizational_units} entry of {@code found}.
     */
    private OrgTree tree(AwsAccount management, List<ServiceCoverage> found) {
        TaskLedger ledger = ledger("aws/" + management.id() + "/global/organizational_units");
        Map<String, OrgTree.Unit> units = new LinkedHashMap<>();
        Map<String, String> parentOf = new LinkedHashMap<>();
        try (TaskLedger.Binding b = ledger.bind()) {
            AccountClient<OrganizationsClient> org = clients.client(OrganizationsClient.class, management, settings.defaultRegion());
            java.util.ArrayDeque<OrgTree.Unit> todo = new java.util.ArrayDeque<>();
            for (software.amazon.awssdk.services.organizations.model.Root r : each(org.client()
                    .listRootsPaginator(q -> q.overrideConfiguration(org.override())).stream().flatMap(pg -> pg.roots().stream()))) {
                OrgTree.Unit root = new OrgTree.Unit(r.id(), OrgTree.ROOT, null);
                units.put(root.id(), root);
                todo.add(root);
            }
            while (!todo.isEmpty()) {
                OrgTree.Unit u = todo.poll();
                for (OrganizationalUnit ou : each(org.client().listOrganizationalUnitsForParentPaginator(q -> q.parentId(u.id())
                        .overrideConfiguration(org.override())).stream().flatMap(pg -> pg.organizationalUnits().stream()))) {
                    OrgTree.Unit child = new OrgTree.Unit(ou.id(), u.path() + "/" + ou.name(), u.id());
                    units.put(child.id(), child);
                    todo.add(child);
                }
                for (Account a : each(org.client().listAccountsForParentPaginator(q -> q.parentId(u.id())
                        .overrideConfiguration(org.override())).stream().flatMap(pg -> pg.accounts().stream()))) {
                    parentOf.put(a.id(), u.id());
                }
            }
            if (ledger.incompleteReason().isPresent()) {
                throw new IllegalStateException(ledger.incompleteReason().get());
            }
            found.add(ServiceCoverage.success("organizational_units", 0));
            return new OrgTree(units, parentOf);
        } catch (RuntimeException e) {
            found.add(new ServiceCoverage("organizational_units", CoverageStatus.FAILED, 0, coverage.errorText(e, ledger)
                    + "; without the tree no account could be placed in its unit, so none was mapped"));
            LOG.warn("AWS: reading the organization's units failed, mapping no account: {}", oneLine(e));
            return null;
        }
    }

    /**
     * The accounts to map: the management account, the organization's, then the configured ones, less those
     * the configuration leaves out and those not active (each of which is in {@code skipped}).
     */
    private Map<String, AwsAccount> accounts(AwsAccount management, Organization organization, List<SkippedAccount> skipped) {
        Map<String, AwsAccount> accounts = new LinkedHashMap<>();
        if (settings.scopedByUnits() && organization.tree() == null) {
            return accounts; // the units could not be read: no account can be placed (the discovery entry says so)
        }
        AccountScope scope = new AccountScope(settings, organization.tree());
        String excluded = scope.exclusion(management.id());
        if (excluded == null) {
            accounts.put(management.id(), management);
        }
        for (Account a : organization.accounts()) {
            String why = scope.exclusion(a.id());
            String state = state(a);
            if (why != null) {
                if (!a.id().equals(management.id())) {
                    skipped.add(new SkippedAccount("aws", a.id(), a.name(), SkippedAccount.EXCLUDED, why));
                }
            } else if (!"ACTIVE".equals(state)) {
                accounts.remove(a.id());
                skipped.add(new SkippedAccount("aws", a.id(), a.name(),
                        "SUSPENDED".equals(state) ? SkippedAccount.SUSPENDED : state.toLowerCase(java.util.Locale.ROOT),
                        state + " in AWS Organizations"));
            } else {
                accounts.put(a.id(), a.id().equals(management.id())
                        ? new AwsAccount(a.id(), a.name(), management.credentials(), true)
                        : member(a.id(), a.name(), management));
            }
        }
        if (excluded != null) {
            String name = organization.accounts().stream().filter(a -> a.id().equals(management.id())).map(Account::name)
                    .findFirst().orElse(null);
            skipped.add(0, new SkippedAccount("aws", management.id(), name, SkippedAccount.EXCLUDED, excluded));
        }
        Set<String> known = new java.util.HashSet<>(accounts.keySet());
        skipped.forEach(s -> known.add(s.accountId()));
        for (String id : settings.accounts()) {
            if (known.contains(id)) {
                continue;
            }
            String why = scope.exclusion(id);
            if (why != null) {
                skipped.add(new SkippedAccount("aws", id, null, SkippedAccount.EXCLUDED, why));
            } else {
                accounts.put(id, member(id, null, management));
            }
            known.add(id);
        }
        return accounts;
    }

    /** A stream of pages' items, lazily, as a for-each loop's source. */
    private static <T> Iterable<T> each(java.util.stream.Stream<T> items) {
        return items::iterator;
    }

    /** An account's state ({@code ACTIVE}, {@code SUSPENDED}...): {@code State}, else the older {@code Status}; ACTIVE if neither. */
    static String state(Account a) {
        String s = a.stateAsString() != null ? a.stateAsString() : a.statusAsString();
        return s == null ? "ACTIVE" : s;
    }

    /** A ledger for a discovery step, counting in the run's statistics when the caller bound a run's ledger. */
    private static TaskLedger ledger(String name) {
        TaskLedger outer = TaskLedger.current();
        return TaskLedger.create(name, outer == null ? null : outer.run());
    }

    /** Enabled regions of one account: names, and which of them every account has (not opt-in). */
    private record Enabled(List<String> all, List<String> everywhere) {
    }

    /**
     * The regions to map in each account: its enabled regions (EC2 DescribeRegions in that account: opt-in
     * regions differ between accounts), within {@code aws.regions} when set, less {@code aws.exclude_regions}.
     * The management account is asked first; the others then at once, a few at a time, each governed in its own
     * scope. An account whose DescribeRegions fails keeps {@code aws.regions} or, when unset, the regions every
     * account has (as the management account's answer says), and gets a FAILED {@code regions} entry in
     * {@code discovery}; the management account's failure falls back to the default region, as its entry says.
     */
    private Map<String, List<String>> regions(AwsAccount management, java.util.Collection<AwsAccount> accounts,
                                              List<ServiceCoverage> found, List<CoverageRecord> discovery) {
        TaskLedger ledger = ledger("aws/" + management.id() + "/regions");
        Enabled own;
        try (TaskLedger.Binding b = ledger.bind()) {
            own = enabled(management);
            found.add(ServiceCoverage.success("regions", 0));
        } catch (RuntimeException e) {
            found.add(new ServiceCoverage("regions", CoverageStatus.FAILED, 0, coverage.errorText(e, ledger)));
            LOG.warn("AWS: DescribeRegions failed, mapping {} only: {}", settings.defaultRegion(), oneLine(e));
            own = null;
        }
        List<String> fallback = !settings.regions().isEmpty() ? settings.regions()
                : own == null ? List.of(settings.defaultRegion()) : own.everywhere();
        Map<String, List<String>> out = new LinkedHashMap<>();
        List<AwsAccount> members = new ArrayList<>();
        for (AwsAccount a : accounts) {
            if (a.id().equals(management.id())) {
                out.put(a.id(), wanted(own == null ? fallback : own.all()));
            } else {
                out.put(a.id(), null);
                members.add(a);
            }
        }
        if (members.isEmpty()) {
            return out;
        }
        int threads = Math.min(DISCOVERY_THREADS, members.size());
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "cloudg-aws-discovery");
            t.setDaemon(true);
            return t;
        });
        TaskLedger outer = TaskLedger.current();
        try {
            Map<String, java.util.concurrent.Future<Object>> answers = new LinkedHashMap<>();
            for (AwsAccount a : members) {
                answers.put(a.id(), pool.submit(() -> {
                    TaskLedger l = TaskLedger.create("aws/" + a.id() + "/regions", outer == null ? null : outer.run());
                    try (TaskLedger.Binding b = l.bind()) {
                        return enabled(a);
                    } catch (RuntimeException e) {
                        return coverage.errorText(e, l);
                    }
                }));
            }
            for (Map.Entry<String, java.util.concurrent.Future<Object>> e : answers.entrySet()) {
                Object answer = e.getValue().get();
                if (answer instanceof Enabled en) {
                    out.put(e.getKey(), wanted(en.all()));
                } else {
                    out.put(e.getKey(), wanted(fallback));
                    discovery.add(new CoverageRecord("aws", e.getKey(), "discovery",
                            List.of(new ServiceCoverage("regions", CoverageStatus.FAILED, 0, (String) answer))));
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StartupException("AWS: interrupted while discovering each account's regions", e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } finally {
            pool.shutdownNow();
        }
        if (!settings.regions().isEmpty()) {
            long missing = out.values().stream().filter(l -> l.size() < wanted(settings.regions()).size()).count();
            if (missing > 0) {
                LOG.info("AWS: {} account(s) have not enabled every region of aws.regions; each is mapped in the ones it has", missing);
            }
        }
        return out;
    }

    /** DescribeRegions a few accounts at a time: each is its own account's call, the governor paces them. */
    static final int DISCOVERY_THREADS = 16;

    /** One account's enabled regions (EC2 DescribeRegions from the default region, as that account). */
    private Enabled enabled(AwsAccount account) {
        AccountClient<Ec2Client> ec2 = clients.client(Ec2Client.class, account, settings.defaultRegion());
        List<Region> regions = ec2.client().describeRegions(r -> r.overrideConfiguration(ec2.override())).regions();
        List<String> all = regions.stream().map(Region::regionName).sorted().toList();
        List<String> everywhere = regions.stream().filter(r -> r.optInStatus() == null || "opt-in-not-required".equals(r.optInStatus()))
                .map(Region::regionName).sorted().toList();
        return new Enabled(all, everywhere);
    }

    /** {@code enabled} within {@code aws.regions} (when set), less {@code aws.exclude_regions}. */
    private List<String> wanted(List<String> enabled) {
        return enabled.stream().filter(r -> settings.regions().isEmpty() || settings.regions().contains(r))
                .filter(r -> !settings.excludeRegions().contains(r)).toList();
    }

    /**
     * One task per account for its global collectors (the management account's also lists the organization's
     * accounts), and one per account x region (its own regions) for the regional collectors and the sweeps.
     * The organization's account list runs in the management account's global task even when that account
     * itself is not mapped: it is what discovery read there.
     */
    private List<CollectionTask> planTasks(AwsAccount management, java.util.Collection<AwsAccount> accounts,
                                           Organization organization, Map<String, List<String>> regions) {
        List<AwsCollector> selected = AwsCatalog.select(settings.collectors(), settings.excludeCollectors());
        boolean wantCloudControl = settings.cloudControlSweep() && wanted("cloudcontrol");
        boolean wantTagging = settings.taggingSweep() && wanted("tagging");
        CollectorJob orgJob = null;
        if (settings.org() && organization.listed() && wanted(ACCOUNTS_JOB)
                && (!settings.scopedByUnits() || organization.tree() != null)) {
            AccountScope scope = new AccountScope(settings, organization.tree());
            orgJob = new CollectorJob(ACCOUNTS_JOB, accountsJob(organization.accounts().stream()
                    .filter(a -> scope.exclusion(a.id()) == null).toList()));
        }
        List<CollectionTask> tasks = new ArrayList<>();
        if (orgJob != null && accounts.stream().noneMatch(a -> a.id().equals(management.id()))) {
            tasks.add(new CollectionTask("aws", management.id(), "global", List.of(orgJob)));
        }
        for (AwsAccount account : accounts) {
            List<CollectorJob> global = new ArrayList<>();
            for (AwsCollector c : selected) {
                if (c.managementOnly() && !account.id().equals(management.id())) {
                    continue;
                }
                if (c.global()) {
                    global.add(new CollectorJob(c.name(), c.body(clients, account, "global")));
                }
            }
            if (account.id().equals(management.id()) && orgJob != null) {
                global.add(orgJob);
            }
            if (!global.isEmpty()) {
                tasks.add(new CollectionTask("aws", account.id(), "global", global));
            }
            for (String region : regions.getOrDefault(account.id(), List.of())) {
                List<CollectorJob> jobs = new ArrayList<>();
                for (AwsCollector c : selected) {
                    if (!c.global() && (!c.managementOnly() || account.id().equals(management.id()))) {
                        jobs.add(new CollectorJob(c.name(), c.body(clients, account, region)));
                    }
                }
                if (wantCloudControl) {
                    jobs.add(new CollectorJob("cloudcontrol", cloudControlSweep(account, region)));
                }
                if (wantTagging) {
                    jobs.add(new CollectorJob("tagging", taggingSweep(account, region)));
                }
                if (!jobs.isEmpty()) {
                    tasks.add(new CollectionTask("aws", account.id(), region, jobs));
                }
            }
        }
        return tasks;
    }

    /** Each account of the organization is an asset of its own (account_id = itself), listed by the management account. */
    private static io.cloudg.collect.CollectorBody accountsJob(List<Account> found) {
        return sink -> {
            for (Account a : found) {
                sink.accept(new Asset("aws", a.id(), "global", "organizations", "AWS::Organizations::Account",
                        a.id(), a.name(), a.arn(), Map.of(), Map.of()));
            }
        };
    }

    /** The management account the last {@link #plan()} found, or null before one ran. */
    public String managementAccountId() {
        return managementAccountId;
    }

    /**
     * Whether {@code job} is built from what discovery found rather than from calls of its own (the
     * organization's account list): such a job cannot be re-planned elsewhere, so a fleet's coordinator
     * runs it.
     */
    public static boolean discoveryJob(String job) {
        return ACCOUNTS_JOB.equals(job);
    }

    /** The service whose quotas a job's calls use ({@code ec2}, {@code iam}, {@code cloudcontrol}...). */
    public static String serviceOf(String job) {
        switch (job) {
            case "cloudcontrol": return "cloudcontrol";
            case "tagging": return "resourcegroupstaggingapi";
            case ACCOUNTS_JOB: return "organizations";
            default:
                AwsCollector c = AwsCatalog.named(job);
                if (c == null) {
                    throw new IllegalArgumentException("no AWS collector named " + job);
                }
                return c.service();
        }
    }

    /**
     * Re-plans part of one task from its description (a fleet worker's entry point): the collectors
     * {@code target} names, in its account and region, with this process's own credentials; a member
     * account's by assuming {@code aws.role_name} from the management account named in
     * {@code target.discovery()}. No discovery call is made.
     *
     * @throws IllegalArgumentException for a collector this build does not have, a discovery job, a
     *         global collector outside {@code global} (or a regional one in it), or no management account
     */
    public CollectionTask taskFor(TaskTarget target) {
        if (!"aws".equals(target.provider())) {
            throw new IllegalArgumentException("not an AWS task: " + target.recordId());
        }
        String managementId = target.discovery().get(TaskTarget.MANAGEMENT_ACCOUNT);
        if (managementId == null) {
            throw new IllegalArgumentException("the task names no " + TaskTarget.MANAGEMENT_ACCOUNT);
        }
        AwsAccount management = replanned.computeIfAbsent(managementId,
                m -> new AwsAccount(m, null, managementCredentials(), true));
        AwsAccount account = target.accountId().equals(managementId) ? management
                : replanned.computeIfAbsent(target.accountId(), id -> member(id, null, management));
        String region = target.region();
        boolean global = region.equals("global");
        List<CollectorJob> jobs = new ArrayList<>();
        for (String name : target.collectors()) {
            jobs.add(new CollectorJob(name, body(name, account, region, global)));
        }
        return new CollectionTask("aws", account.id(), region, jobs);
    }

    private io.cloudg.collect.CollectorBody body(String name, AwsAccount account, String region, boolean global) {
        if (name.equals("cloudcontrol") || name.equals("tagging")) {
            if (global) {
                throw new IllegalArgumentException("the " + name + " sweep is regional, not global");
            }
            return name.equals("cloudcontrol") ? cloudControlSweep(account, region) : taggingSweep(account, region);
        }
        if (discoveryJob(name)) {
            throw new IllegalArgumentException("the " + name + " job comes from discovery and runs where discovery ran");
        }
        AwsCollector c = AwsCatalog.named(name);
        if (c == null) {
            throw new IllegalArgumentException("no AWS collector named " + name + " in this build");
        }
        if (c.global() != global) {
            throw new IllegalArgumentException("collector " + name + " is " + (c.global() ? "global" : "regional")
                    + " but the task's region is " + region);
        }
        return c.body(clients, account, region);
    }

    private boolean wanted(String job) {
        return AwsCatalog.selected(job, serviceOf(job), settings.collectors(), settings.excludeCollectors());
    }

    /** A member account, as the role {@code aws.role_name} assumed in it from the management account. */
    private AwsAccount member(String id, String name, AwsAccount management) {
        AccountClient<StsClient> sts = clients.client(StsClient.class, management, settings.defaultRegion());
        // one AssumeRole at a time for all the account's calls that need it (SingleFlightCredentials)
        AwsCredentialsProvider assumed = new SingleFlightCredentials(StsAssumeRoleCredentialsProvider.builder()
                .stsClient(sts.client()).refreshRequest(sts.as(assumeRoleRequest(id))).asyncCredentialUpdateEnabled(false)
                .build());
        return new AwsAccount(id, name, assumed, false);
    }

    /**
     * The AssumeRole into member account {@code id}: the role's ARN in the partition of {@code aws.default_region}
     * (where STS is called), with its path if {@code aws.role_name} has one, {@code aws.role_session_name}, and
     * {@code aws.external_id} when set.
     */
    AssumeRoleRequest assumeRoleRequest(String id) {
        return AssumeRoleRequest.builder()
                .roleArn(AwsPartition.roleArn(AwsPartition.of(settings.defaultRegion()), id, settings.roleName()))
                .roleSessionName(settings.roleSessionName()).externalId(settings.externalId()).durationSeconds(3600).build();
    }

    /** Cloud Control's answers for a type this region does not offer: "none here", not a failure. */
    static final Set<String> CLOUDCONTROL_NOT_OFFERED = Set.of("TypeNotFoundException", "UnsupportedActionException");

    private io.cloudg.collect.CollectorBody cloudControlSweep(AwsAccount account, String region) {
        List<String> types = cloudControlTypes(settings);
        return sink -> {
            AccountClient<CloudControlClient> cc = clients.client(CloudControlClient.class, account, region);
            int failed = 0;
            String first = null;
            for (String type : types) {
                try {
                    for (ResourceDescription d : cc.client().listResourcesPaginator(r -> r.typeName(type)
                            .overrideConfiguration(cc.override())).resourceDescriptions()) {
                        sink.accept(new Asset("aws", account.id(), region, "cloudcontrol", type, d.identifier(), null,
                                null, Map.of(), Map.of()));
                    }
                } catch (SdkException e) {
                    // a call that gave up or met an open circuit is in the ledger (coverage says PARTIAL); a type
                    // this region does not offer lists as none; a type the sweep could not read (access denied)
                    // is a type missing from the map: the sweep goes on, and ends PARTIAL naming it
                    if (clients.governor().classifier().classify(e) != ErrorClass.FATAL) {
                        throw e;
                    }
                    if (e instanceof software.amazon.awssdk.awscore.exception.AwsServiceException ase
                            && CLOUDCONTROL_NOT_OFFERED.contains(AwsCollector.code(ase))) {
                        LOG.debug("AWS: Cloud Control type {} is not offered in {}/{}", type, account.id(), region);
                        continue;
                    }
                    failed++;
                    if (first == null) {
                        first = "ListResources on " + type + ": " + clients.governor().classifier()
                                .explain(e, clients.governor().time().epochMillis()).summary();
                    }
                }
            }
            if (failed > 0) {
                throw new io.cloudg.collect.IncompleteItemsException(failed, types.size(), first);
            }
        };
    }

    private io.cloudg.collect.CollectorBody taggingSweep(AwsAccount account, String region) {
        return sink -> {
            AccountClient<ResourceGroupsTaggingApiClient> tagging = clients.client(ResourceGroupsTaggingApiClient.class, account, region);
            for (ResourceTagMapping m : tagging.client().getResourcesPaginator(r -> r.overrideConfiguration(tagging.override()))
                    .resourceTagMappingList()) {
                String arn = m.resourceARN();
                String arnType = arnType(arn);
                if (arnType == null || COVERED_ARN_TYPES.contains(arnType)
                        || COVERED_ARN_TYPES.contains(arnType.substring(0, arnType.indexOf(':') + 1))) {
                    continue;
                }
                sink.accept(new Asset("aws", account.id(), region, "tagging", "tagged:" + arnType, arn, null, arn,
                        SdkModel.tags(new ArrayList<>(m.tags())), Map.of()));
            }
        };
    }

    /** {@code service:resource-type} of an ARN, or null if it is not one. */
    static String arnType(String arn) {
        if (arn == null) {
            return null;
        }
        String[] p = arn.split(":", 6);
        if (p.length < 6 || !p[0].equals("arn")) {
            return null;
        }
        String resource = p[5];
        int cut = resource.length();
        for (char sep : new char[] {'/', ':'}) {
            int i = resource.indexOf(sep);
            if (i >= 0) {
                cut = Math.min(cut, i);
            }
        }
        return p[2] + ":" + (cut == resource.length() && !resource.contains("/") ? "" : resource.substring(0, cut));
    }

    static String oneLine(Throwable e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }
}
