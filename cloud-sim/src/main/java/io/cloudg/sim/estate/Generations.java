package io.cloudg.sim.estate;

import io.cloudg.sim.config.GenerationSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.IntFunction;

/**
 * The resources of one kind in one place at the estate's generation: which of the generated ones survive,
 * which carry a changed {@code env} tag, which were added. Decided step by step from the seed, the step and
 * each resource's stable key alone, so generation N+1 is always generation N plus a known change.
 */
final class Generations {
    /** Index offset of resources added at step {@code g}: {@code ADDED * g + k}. */
    static final int ADDED = 100_000;

    /**
     * One resource at the estate's generation.
     *
     * @param index its index (0.. for generated ones, {@code ADDED * g + k} for added ones)
     * @param env   its {@code env} tag ({@code gen-N}, set by the last step that modified it); null if never
     */
    record Entry(int index, String env) {
    }

    private final GenerationSpec spec;
    private final Ids ids;

    Generations(GenerationSpec spec, Ids ids) {
        this.spec = spec;
        this.ids = ids;
    }

    /**
     * @param count      resources of the kind at generation 0
     * @param keyOf      the stable key (ARN, ARM id, asset name) of the resource with a given index
     * @param modifiable whether its listing shows tags (only those are modified)
     * @param removable  whether a step may remove it (not a parent others point at: a VPC or subnet, which
     *                   the real clouds refuse to delete while it has dependents)
     */
    List<Entry> of(int count, IntFunction<String> keyOf, boolean modifiable, boolean removable) {
        List<Entry> alive = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            alive.add(new Entry(i, null));
        }
        for (int g = 1; g <= spec.number(); g++) {
            List<Entry> next = new ArrayList<>(alive.size());
            List<Entry> added = new ArrayList<>();
            for (Entry e : alive) {
                SplittableRandom r = ids.random("generation/" + g + "/" + keyOf.apply(e.index()));
                boolean removed = r.nextDouble() < spec.removed() && removable;
                boolean modified = r.nextDouble() < spec.modified();
                boolean sibling = r.nextDouble() < spec.added();
                if (!removed) {
                    next.add(modifiable && modified ? new Entry(e.index(), "gen-" + g) : e);
                }
                if (sibling) {
                    added.add(new Entry(ADDED * g + added.size(), null));
                }
            }
            next.addAll(added);
            alive = next;
        }
        return alive;
    }
}
