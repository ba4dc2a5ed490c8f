package io.cloudg.aws;

import io.cloudg.collect.CollectionTask;
import io.cloudg.collect.CollectorJob;
import io.cloudg.collect.Coverage;
import io.cloudg.config.AwsSettings;
import io.cloudg.inventory.Asset;
import io.cloudg.inventory.CoverageRecord;
import io.cloudg.inventory.CoverageStatus;
import io.cloudg.inventory.ServiceCoverage;
import io.cloudg.resilience.ErrorClass;
import io.cloudg.resilience.TaskLedger;
import io.cloudg.run.ProviderPlan;
import io.cloudg.run.Endpoints;
import io.cloudg.run.StartupException;
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
import software.amazon.awssdk.services.organizations.model.AccountStatus;
import software.amazon.awssdk.services.resourcegroupstaggingapi.ResourceGroupsTaggingApiClient;
import software.amazon.awssdk.services.resourcegroupstaggingapi.model.ResourceTagMapping;
import software.amazon.awssdk.services.sts.StsClient;
import software.amazon.awssdk.services.sts.auth.StsAssumeRoleCredentialsProvider;

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

    /** Discovers the estate and plans its tasks. Throws {@link StartupException} if not even STS answers. */
    public ProviderPlan plan() {
        AwsAccount management = identify();
        List<ServiceCoverage> found = new ArrayList<>();
        List<Account> orgAccounts = settings.org() ? listOrganization(management, found) : List.of();
        Map<String, AwsAccount> accounts = accounts(management, orgAccounts);
        List<String> regions = settings.regions().isEmpty() ? discoverRegions(management, found) : settings.regions();
        LOG.info("AWS: {} account(s) x {} region(s)", accounts.size(), regions.size());
        List<CollectionTask> tasks = planTasks(management, accounts.values(), orgAccounts, regions);
        List<CoverageRecord> discovery = found.isEmpty() ? List.of()
                : List.of(new CoverageRecord("aws", management.id(), "discovery", found));
        return new ProviderPlan("aws", tasks, discovery);
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
        if (m.length() > 200) {
            m = m.substring(0, 200) + "...";
        }
        return "AWS: cannot tell who we are (STS GetCallerIdentity failed: " + m + "); check the credentials"
                + (settings.endpointUrl() == null ? "" : " and aws.endpoint_url " + settings.endpointUrl());
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
            managementId = clients.client(StsClient.class, probe, settings.defaultRegion())
                    .getCallerIdentity(r -> r.overrideConfiguration(o -> o.apiCallTimeout(IDENTITY_TIMEOUT))).account();
        } catch (SdkException | IllegalStateException e) {
            throw new StartupException(identityFailure(e), e);
        }
        managementAccountId = managementId;
        LOG.info("AWS: management account {}", managementId);
        return new AwsAccount(managementId, null, creds, true);
    }

    /**
     * The organization's active accounts (Organizations ListAccounts); the outcome is an entry of
     * {@code found}. A listing that fails maps the management account only.
     */
    private List<Account> listOrganization(AwsAccount management, List<ServiceCoverage> found) {
        List<Account> orgAccounts = new ArrayList<>();
        TaskLedger ledger = TaskLedger.create("aws/" + management.id() + "/global/organizations");
        try (TaskLedger.Binding b = ledger.bind()) {
            OrganizationsClient org = clients.client(OrganizationsClient.class, management, settings.defaultRegion());
            for (Account a : (Iterable<Account>) org.listAccountsPaginator().stream().flatMap(pg -> pg.accounts().stream())::iterator) {
                if (a.status() == AccountStatus.ACTIVE || a.status() == null) {
                    orgAccounts.add(a);
                }
            }
            found.add(ledger.incompleteReason()
                    .map(r -> new ServiceCoverage("organizations", CoverageStatus.PARTIAL, orgAccounts.size(), r))
                    .orElse(ServiceCoverage.success("organizations", orgAccounts.size())));
        } catch (RuntimeException e) {
            found.add(new ServiceCoverage("organizations", CoverageStatus.FAILED, orgAccounts.size(), coverage.errorText(e, ledger)));
            LOG.warn("AWS: listing the organization's accounts failed, mapping the management account only: {}", oneLine(e));
        }
        return orgAccounts;
    }

    /** The accounts to map: the management account, the organization's, then the configured ones. */
    private Map<String, AwsAccount> accounts(AwsAccount management, List<Account> orgAccounts) {
        Map<String, AwsAccount> accounts = new LinkedHashMap<>();
        accounts.put(management.id(), management);
        for (Account a : orgAccounts) {
            accounts.put(a.id(), a.id().equals(management.id())
                    ? new AwsAccount(a.id(), a.name(), management.credentials(), true)
                    : member(a.id(), a.name(), management));
        }
        for (String id : settings.accounts()) {
            accounts.computeIfAbsent(id, k -> member(k, null, management));
        }
        return accounts;
    }

    /** The enabled regions (EC2 DescribeRegions); the default region alone when that fails. */
    private List<String> discoverRegions(AwsAccount management, List<ServiceCoverage> found) {
        TaskLedger ledger = TaskLedger.create("aws/" + management.id() + "/regions");
        try (TaskLedger.Binding b = ledger.bind()) {
            List<String> regions = clients.client(Ec2Client.class, management, settings.defaultRegion()).describeRegions()
                    .regions().stream().map(Region::regionName).sorted().toList();
            found.add(ServiceCoverage.success("regions", 0));
            return regions;
        } catch (RuntimeException e) {
            found.add(new ServiceCoverage("regions", CoverageStatus.FAILED, 0, coverage.errorText(e, ledger)));
            LOG.warn("AWS: DescribeRegions failed, mapping {} only: {}", settings.defaultRegion(), oneLine(e));
            return List.of(settings.defaultRegion());
        }
    }

    /**
     * One task per account for its global collectors (the management account's also lists the
     * organization's accounts), and one per account x region for the regional collectors and the sweeps.
     */
    private List<CollectionTask> planTasks(AwsAccount management, Iterable<AwsAccount> accounts, List<Account> orgAccounts,
                                           List<String> regions) {
        List<AwsCollector> selected = AwsCatalog.select(settings.collectors(), settings.excludeCollectors());
        boolean wantCloudControl = settings.cloudControlSweep() && wanted("cloudcontrol");
        boolean wantTagging = settings.taggingSweep() && wanted("tagging");
        List<CollectionTask> tasks = new ArrayList<>();
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
            if (account.id().equals(management.id()) && settings.org() && wanted(ACCOUNTS_JOB)) {
                global.add(new CollectorJob(ACCOUNTS_JOB, accountsJob(List.copyOf(orgAccounts))));
            }
            if (!global.isEmpty()) {
                tasks.add(new CollectionTask("aws", account.id(), "global", global));
            }
            for (String region : regions) {
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

    private AwsAccount member(String id, String name, AwsAccount management) {
        StsClient sts = clients.client(StsClient.class, management, settings.defaultRegion());
        String roleArn = "arn:aws:iam::" + id + ":role/" + settings.roleName();
        AwsCredentialsProvider assumed = StsAssumeRoleCredentialsProvider.builder().stsClient(sts)
                .refreshRequest(r -> r.roleArn(roleArn).roleSessionName("cloudg").durationSeconds(3600))
                .asyncCredentialUpdateEnabled(false).build();
        return new AwsAccount(id, name, assumed, false);
    }

    /** Cloud Control's answers for a type this region does not offer: "none here", not a failure. */
    static final Set<String> CLOUDCONTROL_NOT_OFFERED = Set.of("TypeNotFoundException", "UnsupportedActionException");

    private io.cloudg.collect.CollectorBody cloudControlSweep(AwsAccount account, String region) {
        List<String> types = settings.cloudControlTypes().isEmpty() ? DEFAULT_CLOUDCONTROL_TYPES : settings.cloudControlTypes();
        return sink -> {
            CloudControlClient cc = clients.client(CloudControlClient.class, account, region);
            int failed = 0;
            String first = null;
            for (String type : types) {
                try {
                    for (ResourceDescription d : cc.listResourcesPaginator(r -> r.typeName(type)).resourceDescriptions()) {
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
            ResourceGroupsTaggingApiClient tagging = clients.client(ResourceGroupsTaggingApiClient.class, account, region);
            for (ResourceTagMapping m : tagging.getResourcesPaginator().resourceTagMappingList()) {
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
