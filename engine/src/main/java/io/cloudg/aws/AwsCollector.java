package io.cloudg.aws;

import io.cloudg.collect.CollectorBody;
import io.cloudg.collect.IncompleteItemsException;
import io.cloudg.collect.LogContext;
import io.cloudg.config.AwsSettings;
import io.cloudg.inventory.Asset;
import io.cloudg.inventory.AssetSink;
import io.cloudg.resilience.CircuitOpenException;
import io.cloudg.resilience.Classifier;
import io.cloudg.resilience.spi.ErrorClass;
import io.cloudg.resilience.TaskLedger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.SdkClient;
import software.amazon.awssdk.core.SdkPojo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.SdkResponse;
import software.amazon.awssdk.core.exception.SdkException;

/**
 * One collector of the catalog, run from its {@link CollectorSpec} through the SDK model: the list call
 * (the SDK's paginator where the model has one), the items at the spec's member path, each item's id, name,
 * tags and ARN, and its per-item calls. Nothing here knows a service: a new collector is a catalog entry.
 *
 * <p>Per-item calls run {@code aws.item_concurrency} (8) at a time (a sliding window over the listing, each on a
 * virtual thread bound to the job's ledger), so that a bucket-heavy account is held by its quota, not by one round
 * trip after another; each is governed like any call, on its own operation's leaf. The window is a fairness cap
 * (one collector's fan-out leaves its account's bulkhead to the others too), not the map's throughput: that is
 * the governor's (the buckets, the bulkheads, {@code ratelimit.max_calls_in_flight}).
 * Assets still reach the sink in listing order, from the job's own thread.
 *
 * <p>A per-item call that fails (AccessDenied on one bucket, a call the governor gave up on) never makes an
 * asset up: what it would have given is left out, the asset's {@code detail_errors} says which call failed
 * and why, an item whose region call failed is placed where the listing said it is ({@code region_fallback},
 * S3's {@code BucketRegion}) or else in region {@code unknown}, and the entry ends PARTIAL
 * ({@link IncompleteItemsException}). An answer the catalog declares as "not configured"
 * ({@code NoSuchBucketPolicy}) is an answer, not a failure. An error of the listing itself escapes and the
 * entry is FAILED (PARTIAL when the governor gave up on it after some pages, as its ledger says).
 *
 * <p>With {@code aws.detail: full} (the default) an asset's attributes are the item as the provider returned
 * it (every member the answer set) plus each per-item answer under its key; with {@code summary} only the
 * derived attributes, and per-item calls that give nothing else are not made.
 */
public final class AwsCollector {
    private static final Logger LOG = LoggerFactory.getLogger("cloudg.aws");

    /** The region of an item whose region call failed: never a guess. */
    public static final String UNKNOWN_REGION = "unknown";

    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([A-Za-z][\\w.]*)}");

    private final CollectorSpec spec;
    private final Class<? extends SdkClient> client;

    AwsCollector(CollectorSpec spec) {
        this.spec = Objects.requireNonNull(spec);
        this.client = AwsServices.client(spec.service());
        SdkModel.operation(client, spec.list().operation());
        if (spec.parent() != null) {
            SdkModel.operation(client, spec.parent().call().operation());
        }
        for (CollectorSpec.Detail d : spec.details()) {
            SdkModel.operation(client, d.call().operation());
        }
    }

    /** The coverage entry's name. */
    public String name() {
        return spec.name();
    }

    public String type() {
        return spec.type();
    }

    public Class<? extends SdkClient> clientType() {
        return client;
    }

    public boolean global() {
        return AwsServices.of(client).global();
    }

    /** The service key ({@code ec2}, {@code iam}...). */
    public String service() {
        return spec.service();
    }

    /** Runs in the organization's management account only. */
    public boolean managementOnly() {
        return spec.managementOnly();
    }

    /** Whether it lists per parent (a cluster's services): its second call runs once per parent. */
    public boolean listsPerParent() {
        return spec.parent() != null;
    }

    CollectorSpec spec() {
        return spec;
    }

    /** The API operations this collector may call, list first. */
    public List<String> operations() {
        List<String> ops = new ArrayList<>();
        if (spec.parent() != null) {
            ops.add(spec.parent().call().operation());
        }
        ops.add(spec.list().operation());
        for (CollectorSpec.Detail d : spec.details()) {
            if (!ops.contains(d.call().operation())) {
                ops.add(d.call().operation());
            }
        }
        return ops;
    }

    /** The IAM actions those calls need ({@code ec2:DescribeImages}...), in call order. */
    public List<String> permissions() {
        List<String> out = new ArrayList<>();
        AwsServices.Service svc = AwsServices.of(client);
        if (spec.parent() != null) {
            add(out, svc.permission(spec.parent().call().operation()));
        }
        add(out, svc.permission(spec.list().operation()));
        for (CollectorSpec.Detail d : spec.details()) {
            add(out, d.permission() != null ? d.permission() : svc.permission(d.call().operation()));
        }
        spec.permissions().forEach(p -> add(out, p));
        return out;
    }

    private static void add(List<String> l, String s) {
        if (!l.contains(s)) {
            l.add(s);
        }
    }

    /** The work of this collector for {@code account} in {@code region} ({@code global} for global ones). */
    public CollectorBody body(AwsClients clients, AwsAccount account, String region) {
        return sink -> {
            AccountClient<? extends SdkClient> c = clients.client(client, account, region);
            Classifier classifier = clients.governor().classifier();
            TaskLedger ledger = TaskLedger.current();
            int lostBefore = ledger == null ? 0 : ledger.gaveUp() + ledger.circuitSkipped();
            Run run = new Run(c, region, clients);
            try {
                run.listInto(sink);
            } catch (RuntimeException e) {
                // The listing stopped because the governor gave up on a call (or its breaker skipped one):
                // that loss is in the ledger, which makes this entry PARTIAL with the reason. Anything else
                // (AccessDenied, a bug) escapes and the entry is FAILED.
                boolean governedLoss = ledger != null && ledger.gaveUp() + ledger.circuitSkipped() > lostBefore
                        && (e instanceof CircuitOpenException || classifier.classify(e) != ErrorClass.FATAL);
                if (!governedLoss) {
                    throw e;
                }
            }
            run.throwIfIncomplete();
        };
    }

    /** An item and the parent it was listed under (null for top-level listings). */
    private record Found(Object item, String parent) {
    }

    /** One run of the collector in one account x region. */
    private final class Run {
        /** The shared client: every request gets {@link #as}. */
        final SdkClient c;
        final AwsRequestOverrideConfiguration as;
        final String account;
        final String region;
        final AwsClients clients;
        final boolean full;
        /** The partition ARNs are built in: the region's ({@code global}: the default region's). */
        final String partition;
        final AtomicInteger calls = new AtomicInteger();
        final AtomicInteger failed = new AtomicInteger();
        final AtomicReference<String> firstFailure = new AtomicReference<>();

        Run(AccountClient<? extends SdkClient> c, String region, AwsClients clients) {
            this.c = c.client();
            this.as = c.override();
            this.account = c.account().id();
            this.region = region;
            this.clients = clients;
            this.full = clients.settings().detail() == AwsSettings.Detail.FULL;
            this.partition = AwsPartition.of(region.equals("global") ? clients.settings().defaultRegion() : region);
        }

        void throwIfIncomplete() throws IncompleteItemsException {
            if (failed.get() > 0) {
                throw new IncompleteItemsException(failed.get(), calls.get(), firstFailure.get());
            }
        }

        /** A per-item call failed: counted, and its reason kept for the coverage entry. */
        String failure(String operation, String on, RuntimeException e) {
            if (!(e instanceof SdkException) && !(e instanceof CircuitOpenException)) {
                throw e; // a bug, not an answer from AWS
            }
            String why = operation + ": " + reason(e);
            failed.incrementAndGet();
            firstFailure.compareAndSet(null, operation + " on " + on + ": " + reason(e));
            return why;
        }

        String reason(RuntimeException e) {
            if (e instanceof CircuitOpenException) {
                return "circuit open: " + e.getMessage();
            }
            return clients.governor().classifier().explain(e, clients.governor().time().epochMillis()).summary();
        }

        void forEachItem(Consumer<Found> each) {
            if (spec.parent() == null) {
                list(spec.list(), Map.of(), null, item -> each.accept(new Found(item, null)));
                return;
            }
            CollectorSpec.Parent p = spec.parent();
            List<String> parents = new ArrayList<>();
            pages(p.call(), Map.of(), null, null, page -> {
                for (Object item : SdkModel.path(page, p.items())) {
                    String id = p.id() == null ? SdkModel.text(item) : SdkModel.text(SdkModel.first(item, p.id()));
                    if (id != null) {
                        parents.add(id);
                    }
                }
            });
            for (String parent : parents) {
                calls.incrementAndGet();
                try {
                    list(spec.list(), Map.of("parent", parent), parent, item -> each.accept(new Found(item, parent)));
                } catch (RuntimeException e) {
                    failure(spec.list().operation(), parent, e);
                }
            }
        }

        private void list(CollectorSpec.Call call, Map<String, String> vars, String parent, Consumer<Object> each) {
            pages(call, vars, spec.absent(), spec.paging(), page -> {
                for (Object item : SdkModel.path(page, spec.items())) {
                    each.accept(item);
                }
            });
        }

        /** Every page of {@code call}; an error code in {@code absent} means "nothing here". */
        private void pages(CollectorSpec.Call call, Map<String, String> vars, List<String> absent,
                           CollectorSpec.Paging paging, Consumer<SdkResponse> onPage) {
            SdkModel.Operation op = SdkModel.operation(client, call.operation());
            Map<String, Object> request = fill(call.request(), name -> vars.get(name));
            try {
                if (paging != null) {
                    String token = null;
                    do {
                        Map<String, Object> r = new LinkedHashMap<>(request);
                        if (token != null) {
                            r.put(paging.in(), token);
                        }
                        SdkResponse page = op.invoke(c, op.request(r, as));
                        onPage.accept(page);
                        token = SdkModel.text(SdkModel.first(page, paging.out()));
                    } while (token != null && !token.isEmpty());
                    return;
                }
                for (SdkResponse page : op.pages(c, op.request(request, as))) {
                    onPage.accept(page);
                }
            } catch (AwsServiceException e) {
                if (absent != null && absent.contains(code(e))) {
                    return;
                }
                throw e;
            }
        }

        /**
         * Lists, and for collectors with per-item calls runs up to {@code aws.item_concurrency} items' calls at
         * once (the governor paces them, the bulkhead caps them per account).
         */
        void listInto(AssetSink sink) throws InterruptedException {
            boolean perItem = spec.details().stream().anyMatch(d -> full || d.summaryNeeds());
            if (!perItem) {
                Exception[] sinkError = new Exception[1];
                forEachItem(f -> {
                    Asset a = asset(f);
                    if (a != null && sinkError[0] == null) {
                        try {
                            sink.accept(a);
                        } catch (Exception e) {
                            sinkError[0] = e;
                        }
                    }
                });
                rethrow(sinkError[0]);
                return;
            }
            ExecutorService threads = clients.itemThreads();
            int inFlight = clients.settings().itemConcurrency();
            TaskLedger ledger = TaskLedger.current();
            ArrayDeque<Future<Asset>> window = new ArrayDeque<>();
            Exception[] error = new Exception[1];
            try {
                forEachItem(f -> {
                    if (error[0] != null) {
                        return;
                    }
                    try {
                        if (window.size() >= inFlight) {
                            accept(sink, await(window.poll()));
                        }
                    } catch (Exception e) {
                        error[0] = e;
                        return;
                    }
                    window.add(threads.submit(LogContext.wrap(() -> {
                        try (TaskLedger.Binding b = ledger == null ? null : ledger.bind()) {
                            return asset(f);
                        }
                    })));
                });
                rethrow(error[0]);
                while (!window.isEmpty()) {
                    accept(sink, await(window.poll()));
                }
            } catch (InterruptedException | RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            } finally {
                for (Future<Asset> f : window) {
                    f.cancel(true);
                }
            }
        }

        private void accept(AssetSink sink, Asset a) throws Exception {
            if (a != null) {
                sink.accept(a);
            }
        }

        private void rethrow(Exception e) throws InterruptedException {
            if (e == null) {
                return;
            }
            if (e instanceof InterruptedException ie) {
                throw ie;
            }
            if (e instanceof RuntimeException re) {
                throw re;
            }
            throw new IllegalStateException(e);
        }

        /** One item's asset, with its per-item calls; null for an item without an id. */
        Asset asset(Found f) {
            Object item = f.item();
            Map<String, String> vars = new LinkedHashMap<>();
            vars.put("region", region);
            vars.put("account", account);
            vars.put("partition", partition);
            if (f.parent() != null) {
                vars.put("parent", f.parent());
            }
            if (!(item instanceof SdkPojo)) {
                vars.put("item", SdkModel.text(item));
            }
            Function<String, String> lookup = name -> vars.containsKey(name) ? vars.get(name)
                    : SdkModel.text(SdkModel.first(item, name));
            String id = spec.id().contains("{") ? fillText(spec.id(), lookup) : SdkModel.text(SdkModel.first(item, spec.id()));
            if (id == null) {
                return null;
            }
            vars.put("id", id);
            Map<String, String> tags = new LinkedHashMap<>();
            if (spec.tags() != null) {
                tags.putAll(SdkModel.tags(SdkModel.path(item, spec.tags())));
            }
            Map<String, Object> attributes = new LinkedHashMap<>();
            if (full && item instanceof SdkPojo p) {
                attributes.putAll(SdkModel.serialize(p));
            }
            derive(spec.derive(), item, attributes);
            String itemRegion = region;
            String arn = arn(item, lookup);
            if (arn != null) {
                vars.put("arn", arn);
            }
            List<String> errors = new ArrayList<>();
            for (CollectorSpec.Detail d : spec.details()) {
                if (!full && !d.summaryNeeds()) {
                    continue;
                }
                SdkModel.Operation op = SdkModel.operation(client, d.call().operation());
                calls.incrementAndGet();
                SdkResponse answer;
                try {
                    SdkRequest request = op.request(fill(d.call().request(), lookup), as);
                    answer = op.invoke(c, request);
                } catch (AwsServiceException e) {
                    if (d.absent().contains(code(e))) {
                        attributes.putAll(d.absentDerive());
                        continue;
                    }
                    if (gone(e)) {
                        // deleted between the listing and this call: it no longer exists, nothing was missed
                        LOG.debug("{} {} is gone ({}): left out", spec.type(), id, code(e));
                        return null;
                    }
                    errors.add(failure(op.name(), id, e));
                    if (d.region() != null) {
                        itemRegion = fallbackRegion(d, item);
                    }
                    continue;
                } catch (RuntimeException e) {
                    errors.add(failure(op.name(), id, e));
                    if (d.region() != null) {
                        itemRegion = fallbackRegion(d, item);
                    }
                    continue;
                }
                if (full) {
                    attributes.put(d.key(), SdkModel.serialize(answer));
                }
                derive(d.derive(), answer, attributes);
                if (d.tags() != null) {
                    tags.putAll(SdkModel.tags(SdkModel.path(answer, d.tags())));
                }
                if (d.region() != null) {
                    String constraint = SdkModel.text(SdkModel.first(answer, d.region()));
                    itemRegion = "s3".equals(d.regionMap()) ? s3Region(constraint) : constraint;
                }
            }
            if (!errors.isEmpty()) {
                attributes.put("detail_errors", errors);
            }
            if (!itemRegion.equals(region)) {
                vars.put("region", itemRegion);
                arn = arn(item, lookup);
            }
            String display = spec.display() == null ? null
                    : spec.nameFromTag() ? tags.get(spec.display().substring(4))
                    : SdkModel.text(SdkModel.first(item, spec.display()));
            return new Asset("aws", account, itemRegion, spec.service(), spec.type(), id, display, arn,
                    Collections.unmodifiableMap(tags), attributes);
        }

        private String arn(Object item, Function<String, String> lookup) {
            if (spec.arnField() != null) {
                return SdkModel.text(SdkModel.first(item, spec.arnField()));
            }
            return spec.arn() == null ? null : fillText(spec.arn(), lookup);
        }
    }

    /**
     * The region of an item whose region call failed: what the listing itself said ({@code region_fallback}, e.g.
     * the {@code BucketRegion} S3's ListBuckets gives each bucket), else {@link #UNKNOWN_REGION}, never a guess.
     */
    static String fallbackRegion(CollectorSpec.Detail d, Object item) {
        String listed = d.regionFallback() == null ? null : SdkModel.text(SdkModel.first(item, d.regionFallback()));
        return listed == null || listed.isBlank() ? UNKNOWN_REGION : listed;
    }

    private static void derive(Map<String, Derive> derive, Object root, Map<String, Object> into) {
        derive.forEach((k, d) -> {
            Object v = d.eval(root);
            if (v != null) {
                into.put(k, v);
            }
        });
    }

    /**
     * The error codes AWS services answer with when the resource a call names does not exist (IAM
     * {@code NoSuchEntity}, S3 {@code NoSuchBucket}, EC2 {@code InvalidAMIID.NotFound}, ECR
     * {@code RepositoryNotFoundException}, the common
     * {@code ResourceNotFoundException}...). A per-item call that gets one (and not as the call's declared
     * {@code absent} answer, which names a missing sub-resource such as a policy) found the item deleted after
     * the listing: the item is left out, not reported as a failed detail.
     */
    static final java.util.regex.Pattern GONE = java.util.regex.Pattern.compile(
            "NoSuchEntity|NoSuchBucket|AWS\\.SimpleQueueService\\.NonExistentQueue|[A-Za-z.]*NotFound(Exception|Fault)?");

    static boolean gone(AwsServiceException e) {
        return GONE.matcher(code(e)).matches();
    }

    static String code(AwsServiceException e) {
        return e.awsErrorDetails() != null && e.awsErrorDetails().errorCode() != null ? e.awsErrorDetails().errorCode()
                : "HTTP " + e.statusCode();
    }

    /** S3's location constraint as a region: empty is us-east-1, {@code EU} is eu-west-1. */
    static String s3Region(String constraint) {
        if (constraint == null || constraint.isEmpty() || constraint.equals("null")) {
            return "us-east-1";
        }
        return constraint.equals("EU") ? "eu-west-1" : constraint;
    }

    /** A request's members with their {@code {placeholders}} filled in. */
    static Map<String, Object> fill(Map<String, Object> request, Function<String, String> lookup) {
        if (request.isEmpty()) {
            return request;
        }
        Map<String, Object> out = new LinkedHashMap<>();
        request.forEach((k, v) -> out.put(k, fillValue(v, lookup)));
        return out;
    }

    private static Object fillValue(Object v, Function<String, String> lookup) {
        if (v instanceof String s) {
            return fillText(s, lookup);
        }
        if (v instanceof List<?> l) {
            List<Object> out = new ArrayList<>();
            l.forEach(o -> out.add(fillValue(o, lookup)));
            return out;
        }
        if (v instanceof Map<?, ?> m) {
            Map<String, Object> out = new LinkedHashMap<>();
            m.forEach((k, o) -> out.put(String.valueOf(k), fillValue(o, lookup)));
            return out;
        }
        return v;
    }

    /** {@code text} with each {@code {name}} replaced by its value; null if a placeholder has none. */
    static String fillText(String text, Function<String, String> lookup) {
        Matcher m = PLACEHOLDER.matcher(text);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            String v = lookup.apply(m.group(1));
            if (v == null) {
                return null;
            }
            m.appendReplacement(sb, Matcher.quoteReplacement(v));
        }
        m.appendTail(sb);
        return sb.toString();
    }

    /** The item's asset once its calls are done; what escaped them (a bug) escapes here too. */
    private static Asset await(Future<Asset> f) throws InterruptedException {
        try {
            return f.get();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(cause);
        } catch (CancellationException e) {
            throw new InterruptedException("per-item call cancelled");
        }
    }

    @Override
    public String toString() {
        return "AwsCollector{" + spec.name() + "}";
    }
}
