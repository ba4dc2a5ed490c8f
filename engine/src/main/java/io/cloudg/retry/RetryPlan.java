package io.cloudg.retry;

import com.fasterxml.jackson.databind.JsonNode;
import io.cloudg.collect.TaskSummary;
import io.cloudg.replan.Replanners;
import io.cloudg.inventory.CoverageRecord;
import io.cloudg.inventory.CoverageStatus;
import io.cloudg.inventory.ServiceCoverage;
import io.cloudg.run.TaskTarget;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * What {@code cloudg map --retry-failed} re-runs, decided from the old map alone (a pure function of its
 * coverage and run block): every service entry that is not SUCCESS, as one {@link TaskTarget} per account x
 * region listing those collectors, with the discovery facts the run recorded. Entries derived from others
 * (Azure's {@code azure_full}) are never re-run: they are summarized again over the merged entries. A
 * provider is <em>rediscovered</em> instead (planned again, then only its entries that were not SUCCESS, or
 * that the old map never had, are run) when its discovery itself was not SUCCESS (accounts may be
 * missing), when a job that only discovery can build failed, or when a fact re-planning needs is missing.
 * {@link #merge} puts the old and the new entries together.
 *
 * @param targets the entries to re-run, by account x region, in the old map's order
 * @param rediscover providers to plan again
 * @param retried the ids of the entries re-run ({@code aws/123456789012/us-east-1/subnets}), for the run block
 * @param facts the discovery facts, by provider
 */
public record RetryPlan(List<TaskTarget> targets, Set<String> rediscover, List<String> retried,
                        Map<String, Map<String, String>> facts) {

    /** The discovery record's region. */
    static final String DISCOVERY = "discovery";

    /** Plans the retry of {@code coverage}; {@code run} is the old map's run block. */
    public static RetryPlan of(List<CoverageRecord> coverage, JsonNode run, Predicate<String> awsDiscoveryJob) {
        Map<String, Map<String, String>> facts = facts(run, coverage);
        Set<String> rediscover = new LinkedHashSet<>();
        for (CoverageRecord r : coverage) {
            if (r.region().equals(DISCOVERY) && r.status() != CoverageStatus.SUCCESS) {
                rediscover.add(r.provider());
            }
            if (r.provider().equals("aws") && r.status() != CoverageStatus.SUCCESS
                    && r.services().stream().anyMatch(s -> s.status() != CoverageStatus.SUCCESS && awsDiscoveryJob.test(s.service()))) {
                rediscover.add("aws");
            }
        }
        List<TaskTarget> targets = new ArrayList<>();
        List<String> retried = new ArrayList<>();
        for (CoverageRecord r : coverage) {
            if (r.region().equals(DISCOVERY)) {
                if (r.status() != CoverageStatus.SUCCESS) {
                    r.services().stream().filter(s -> s.status() != CoverageStatus.SUCCESS)
                            .forEach(s -> retried.add(id(r, s.service())));
                }
                continue;
            }
            String summary = summaryName(r.provider());
            List<String> collectors = r.services().stream()
                    .filter(s -> s.status() != CoverageStatus.SUCCESS && !s.service().equals(summary))
                    .map(ServiceCoverage::service).toList();
            if (collectors.isEmpty()) {
                continue;
            }
            collectors.forEach(c -> retried.add(id(r, c)));
            if (r.provider().equals("aws") && !facts.getOrDefault("aws", Map.of()).containsKey(TaskTarget.MANAGEMENT_ACCOUNT)) {
                rediscover.add("aws");
            }
            if (!rediscover.contains(r.provider())) {
                targets.add(new TaskTarget(r.provider(), r.accountId(), r.region(), collectors,
                        facts.getOrDefault(r.provider(), Map.of())));
            }
        }
        List<TaskTarget> direct = targets.stream().filter(t -> !rediscover.contains(t.provider())).toList();
        return new RetryPlan(direct, rediscover, retried, facts);
    }

    static String id(CoverageRecord r, String service) {
        return r.provider() + "/" + r.accountId() + "/" + r.region() + "/" + service;
    }

    /** The name of the entry a provider derives from the others (Azure's {@code azure_full}), or null. */
    static String summaryName(String provider) {
        TaskSummary s = Replanners.summaryOf(provider);
        return s == null ? null : s.summarize(List.of()).service();
    }

    /**
     * The facts of the old run: its {@code run.discovery} block, and for AWS, when it has none, the
     * management account its discovery record names.
     */
    static Map<String, Map<String, String>> facts(JsonNode run, List<CoverageRecord> coverage) {
        Map<String, Map<String, String>> out = new TreeMap<>();
        run.path("discovery").fields().forEachRemaining(p -> {
            Map<String, String> f = new TreeMap<>();
            p.getValue().fields().forEachRemaining(e -> f.put(e.getKey(), e.getValue().asText()));
            out.put(p.getKey(), f);
        });
        if (!out.getOrDefault("aws", Map.of()).containsKey(TaskTarget.MANAGEMENT_ACCOUNT)) {
            for (CoverageRecord r : coverage) {
                if (r.provider().equals("aws") && r.region().equals(DISCOVERY)) {
                    out.computeIfAbsent("aws", k -> new TreeMap<>()).put(TaskTarget.MANAGEMENT_ACCOUNT, r.accountId());
                }
            }
        }
        return out;
    }

    /**
     * The coverage of the retry: the old records with the entries re-run replaced by their new ones (and
     * entries the old map lacked added), a rediscovered provider's discovery record replaced by the new
     * one, records the old map lacked appended, and each provider's summary entry computed again over the
     * merged entries.
     */
    public static List<CoverageRecord> merge(List<CoverageRecord> old, List<CoverageRecord> fresh) {
        Map<String, Map<String, ServiceCoverage>> byRecord = new LinkedHashMap<>();
        Map<String, CoverageRecord> heads = new LinkedHashMap<>();
        for (CoverageRecord r : old) {
            String key = r.provider() + "/" + r.accountId() + "/" + r.region();
            heads.put(key, r);
            Map<String, ServiceCoverage> entries = byRecord.computeIfAbsent(key, k -> new LinkedHashMap<>());
            r.services().forEach(s -> entries.put(s.service(), s));
        }
        Set<String> rediscovered = new LinkedHashSet<>();
        for (CoverageRecord r : fresh) {
            if (r.region().equals(DISCOVERY)) {
                rediscovered.add(r.provider());
            }
        }
        for (CoverageRecord r : old) {
            if (r.region().equals(DISCOVERY) && rediscovered.contains(r.provider())) {
                // the new discovery record takes the old one's place (the same key) or, for another account, goes
                String key = r.provider() + "/" + r.accountId() + "/" + r.region();
                boolean same = fresh.stream().anyMatch(f -> key.equals(f.provider() + "/" + f.accountId() + "/" + f.region()));
                if (same) {
                    byRecord.get(key).clear();
                } else {
                    heads.remove(key);
                    byRecord.remove(key);
                }
            }
        }
        for (CoverageRecord r : fresh) {
            String key = r.provider() + "/" + r.accountId() + "/" + r.region();
            heads.putIfAbsent(key, r);
            Map<String, ServiceCoverage> entries = byRecord.computeIfAbsent(key, k -> new LinkedHashMap<>());
            String summary = summaryName(r.provider());
            r.services().stream().filter(s -> !s.service().equals(summary)).forEach(s -> entries.put(s.service(), s));
        }
        List<CoverageRecord> out = new ArrayList<>();
        for (Map.Entry<String, CoverageRecord> h : heads.entrySet()) {
            CoverageRecord head = h.getValue();
            List<ServiceCoverage> entries = new ArrayList<>(byRecord.get(h.getKey()).values());
            TaskSummary summary = head.region().equals(DISCOVERY) ? null : Replanners.summaryOf(head.provider());
            if (summary != null) {
                String name = summaryName(head.provider());
                entries.removeIf(s -> s.service().equals(name));
                entries.add(summary.summarize(List.copyOf(entries)));
            }
            out.add(new CoverageRecord(head.provider(), head.accountId(), head.region(), entries));
        }
        return out;
    }
}
