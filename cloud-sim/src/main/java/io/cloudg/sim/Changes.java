package io.cloudg.sim;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.cloudg.sim.estate.Asset;
import io.cloudg.sim.estate.Truth;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * What changed between two generations of the estate (see {@link io.cloudg.sim.config.GenerationSpec}):
 * assets added, assets removed, and assets whose fields changed, which fields, from what to what. Served at
 * {@code GET /_sim/changes?from=K} and as the {@code changes} field of {@code GET /_sim/truth} (from the
 * generation before). Assets are matched on {@link Asset#key()}; the fields compared are the tags a
 * generation sets ({@code tags.env}).
 *
 * @param fromGeneration the older generation
 * @param toGeneration   the generation served
 * @param added          assets in the newer generation only, in estate order
 * @param removed        assets in the older generation only, in estate order
 * @param changed        assets in both whose fields differ, in estate order
 */
@JsonPropertyOrder({"from_generation", "to_generation", "added", "removed", "changed"})
public record Changes(@JsonProperty("from_generation") int fromGeneration,
                      @JsonProperty("to_generation") int toGeneration,
                      @JsonProperty("added") List<Asset> added, @JsonProperty("removed") List<Asset> removed,
                      @JsonProperty("changed") List<Change> changed) {

    public Changes {
        added = List.copyOf(added);
        removed = List.copyOf(removed);
        changed = List.copyOf(changed);
    }

    /**
     * One asset whose fields changed.
     *
     * @param asset  the asset as the newer generation has it
     * @param fields the fields that differ ({@code tags.env})
     * @param before their values in the older generation (null: absent)
     * @param after  their values in the newer generation (null: absent)
     */
    @JsonPropertyOrder({"asset", "fields", "before", "after"})
    public record Change(@JsonProperty("asset") Asset asset, @JsonProperty("fields") List<String> fields,
                         @JsonProperty("before") Map<String, String> before,
                         @JsonProperty("after") Map<String, String> after) {
    }

    /** Nothing changed. */
    public boolean none() {
        return added.isEmpty() && removed.isEmpty() && changed.isEmpty();
    }

    /** The changes from {@code older} to {@code newer}. */
    public static Changes between(Truth older, int from, Truth newer, int to) {
        Map<String, Asset> before = new LinkedHashMap<>();
        older.forEach(a -> before.put(a.key(), a));
        List<Asset> added = new ArrayList<>();
        List<Change> changed = new ArrayList<>();
        java.util.Set<String> kept = new java.util.HashSet<>();
        newer.forEach(a -> {
            Asset old = before.get(a.key());
            if (old == null) {
                added.add(a);
                return;
            }
            kept.add(a.key());
            TreeSet<String> keys = new TreeSet<>(old.tags().keySet());
            keys.addAll(a.tags().keySet());
            List<String> fields = new ArrayList<>();
            Map<String, String> was = new LinkedHashMap<>();
            Map<String, String> now = new LinkedHashMap<>();
            for (String k : keys) {
                if (!Objects.equals(old.tags().get(k), a.tags().get(k))) {
                    fields.add("tags." + k);
                    was.put("tags." + k, old.tags().get(k));
                    now.put("tags." + k, a.tags().get(k));
                }
            }
            if (!fields.isEmpty()) {
                changed.add(new Change(a, fields, was, now));
            }
        });
        List<Asset> removed = before.values().stream().filter(a -> !kept.contains(a.key())).toList();
        return new Changes(from, to, added, removed, changed);
    }
}
