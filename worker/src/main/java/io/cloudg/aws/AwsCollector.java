package io.cloudg.aws;

import io.cloudg.collect.LogContext;
import io.cloudg.collect.CollectorBody;
import io.cloudg.inventory.Asset;
import io.cloudg.resilience.CircuitOpenException;
import io.cloudg.resilience.ErrorClass;
import io.cloudg.resilience.Classifier;
import io.cloudg.resilience.TaskLedger;
import io.cloudg.inventory.AssetSink;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.function.Function;
import software.amazon.awssdk.core.SdkClient;

/**
 * A declarative AWS collector: which client, how to list, and how to read an item's id, name, tags and
 * ARN; optionally a per-item call (one DescribeImageAttribute per AMI) and a per-item region (S3 buckets).
 * Adding a collector is a few lines in {@link AwsCatalog}:
 *
 * <pre>{@code
 * AwsCollector.of("vpc", Ec2Client.class, "AWS::EC2::VPC")
 *     .list((ec2, ctx) -> ec2.describeVpcsPaginator().vpcs())
 *     .id(Vpc::vpcId).tags(v -> Tags.ec2(v.tags())).arn("arn:aws:ec2:{region}:{account}:vpc/{id}")
 * }</pre>
 *
 * <p>Per-item calls catch their own errors, so that one bad resource does not stop a sweep; a per-item
 * call that gave up or met an open circuit is in the task ledger, which makes the coverage PARTIAL. An
 * error of the listing itself escapes and the collector is FAILED.
 *
 * <p>Per-item calls run {@code aws.item_concurrency} (8) at a time (a sliding window over the listing, on the
 * clients' item threads, each bound to the job's ledger), so that an AMI-heavy region is held by its
 * quota, not by one round trip after another; assets still reach the sink in listing order, from the
 * job's own thread, and at most a window's worth of items is held.
 *
 * @param <C> the SDK client type
 * @param <T> the listed item type
 */
public final class AwsCollector<C extends SdkClient, T> {
    /** Lists the items of one account x region. */
    @FunctionalInterface
    public interface Lister<C, T> {
        Iterable<T> list(C client, Where where);
    }

    /** A per-item call whose answer is kept in the asset's attributes. */
    @FunctionalInterface
    public interface Detail<C, T> {
        Map<String, Object> fetch(C client, T item, Where where);
    }

    /** A per-item call that tells the item's region (S3 buckets). */
    @FunctionalInterface
    public interface RegionOf<C, T> {
        String regionOf(C client, T item, Where where);
    }

    /** Where a collector runs. */
    public record Where(String account, String region) {
    }

    private final String name;
    private final Class<C> client;
    private final String type;
    private Lister<C, T> lister;
    private Function<T, String> id;
    private Function<T, String> displayName = t -> null;
    private Function<T, Map<String, String>> tags = t -> Map.of();
    private String arnPattern;
    private Detail<C, T> detail;
    private RegionOf<C, T> regionOf;

    private AwsCollector(String name, Class<C> client, String type) {
        this.name = Objects.requireNonNull(name);
        this.client = Objects.requireNonNull(client);
        this.type = Objects.requireNonNull(type);
    }

    public static <C extends SdkClient, T> AwsCollector<C, T> of(String name, Class<C> client, String type) {
        return new AwsCollector<>(name, client, type);
    }

    public AwsCollector<C, T> list(Lister<C, T> l) { this.lister = l; return this; }
    public AwsCollector<C, T> id(Function<T, String> f) { this.id = f; return this; }
    public AwsCollector<C, T> name(Function<T, String> f) { this.displayName = f; return this; }
    public AwsCollector<C, T> tags(Function<T, Map<String, String>> f) { this.tags = f; return this; }
    /** {@code {region}}, {@code {account}} and {@code {id}} are filled in; null for no ARN. */
    public AwsCollector<C, T> arn(String pattern) { this.arnPattern = pattern; return this; }
    public AwsCollector<C, T> detail(Detail<C, T> d) { this.detail = d; return this; }
    public AwsCollector<C, T> regionOf(RegionOf<C, T> r) { this.regionOf = r; return this; }

    /** The coverage entry's name. */
    public String name() { return name; }
    public String type() { return type; }
    public Class<C> clientType() { return client; }
    public boolean global() { return AwsServices.of(client).global(); }
    public String service() { return AwsServices.of(client).key(); }

    /** The work of this collector for {@code account} in {@code region} ({@code global} for global ones). */
    public CollectorBody body(AwsClients clients, AwsAccount account, String region) {
        if (lister == null || id == null) {
            throw new IllegalStateException("collector " + name + " needs list(...) and id(...)");
        }
        return sink -> {
            C c = clients.client(client, account, region);
            Where where = new Where(account.id(), region);
            Classifier classifier = clients.governor().classifier();
            TaskLedger ledger = TaskLedger.current();
            int lostBefore = ledger == null ? 0 : ledger.gaveUp() + ledger.circuitSkipped();
            try {
                listInto(c, where, account, region, sink, clients.itemThreads(), clients.settings().itemConcurrency(),
                        classifier);
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
        };
    }

    /**
     * Lists, and for collectors with per-item calls runs up to {@code inFlight} items' calls at once (at
     * 20 rps per EC2 action and 50-100 ms a round trip, 8 keep one action's quota busy; the governor paces
     * them, the bulkhead caps them per account).
     */
    private void listInto(C c, Where where, AwsAccount account, String region, AssetSink sink, ExecutorService threads,
                          int inFlight, Classifier classifier) throws InterruptedException {
        if (detail == null && regionOf == null) {
            for (T item : lister.list(c, where)) {
                String itemId = id.apply(item);
                if (itemId != null) {
                    sink.accept(asset(c, where, account, region, item, itemId, classifier));
                }
            }
            return;
        }
        TaskLedger ledger = TaskLedger.current();
        ArrayDeque<Future<Asset>> window = new ArrayDeque<>();
        try {
            for (T item : lister.list(c, where)) {
                String itemId = id.apply(item);
                if (itemId == null) {
                    continue;
                }
                if (window.size() >= inFlight) {
                    sink.accept(await(window.poll()));
                }
                window.add(threads.submit(LogContext.wrap(() -> {
                    try (TaskLedger.Binding b = ledger == null ? null : ledger.bind()) {
                        return asset(c, where, account, region, item, itemId, classifier);
                    }
                })));
            }
            while (!window.isEmpty()) {
                sink.accept(await(window.poll()));
            }
        } finally {
            for (Future<Asset> f : window) {
                f.cancel(true);
            }
        }
    }

    /** One item's asset, with its per-item calls. */
    private Asset asset(C c, Where where, AwsAccount account, String region, T item, String itemId,
                        Classifier classifier) {
        String itemRegion = regionOf == null ? region
                : perItem(() -> regionOf.regionOf(c, item, where), region, classifier);
        Map<String, Object> attributes = detail == null ? Map.of()
                : perItem(() -> detail.fetch(c, item, where), Map.of(), classifier);
        String arn = arnPattern == null ? null : arnPattern.replace("{region}", itemRegion)
                .replace("{account}", account.id()).replace("{id}", itemId);
        return new Asset("aws", account.id(), itemRegion, service(), type, itemId,
                displayName.apply(item), arn, tags.apply(item), attributes);
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

    /**
     * A per-item call: its failure is recorded (by the governor's ledger when it gave up or met an open
     * circuit) but does not stop the sweep. Fatal answers (AccessDenied on one item) are skipped too.
     */
    private static <V> V perItem(java.util.function.Supplier<V> call, V fallback, Classifier classifier) {
        try {
            return call.get();
        } catch (CircuitOpenException e) {
            return fallback;
        } catch (RuntimeException e) {
            ErrorClass c = classifier.classify(e);
            if (c == ErrorClass.FATAL && !(e instanceof software.amazon.awssdk.core.exception.SdkException)) {
                throw e; // a bug, not an answer from AWS
            }
            return fallback;
        }
    }

    /** Helpers for the many tag shapes of the SDK. */
    public static final class Tags {
        private Tags() {
        }

        public static <X> Map<String, String> of(List<X> tags, Function<X, String> key, Function<X, String> value) {
            if (tags == null || tags.isEmpty()) {
                return Map.of();
            }
            Map<String, String> m = new LinkedHashMap<>();
            for (X t : tags) {
                String k = key.apply(t);
                if (k != null) {
                    m.put(k, value.apply(t) == null ? "" : value.apply(t));
                }
            }
            return Collections.unmodifiableMap(m);
        }

        public static Map<String, String> ec2(List<software.amazon.awssdk.services.ec2.model.Tag> tags) {
            return of(tags, software.amazon.awssdk.services.ec2.model.Tag::key,
                    software.amazon.awssdk.services.ec2.model.Tag::value);
        }

        /** The value of the {@code Name} tag, or null. */
        public static String ec2Name(List<software.amazon.awssdk.services.ec2.model.Tag> tags) {
            if (tags == null) {
                return null;
            }
            for (software.amazon.awssdk.services.ec2.model.Tag t : tags) {
                if ("Name".equals(t.key())) {
                    return t.value();
                }
            }
            return null;
        }
    }
}
