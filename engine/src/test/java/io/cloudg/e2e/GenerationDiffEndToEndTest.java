package io.cloudg.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudg.CloudGConfig;
import io.cloudg.map.InventoryMapper;
import io.cloudg.InventoryResult;
import io.cloudg.diff.DiffSide;
import io.cloudg.diff.MapDiff;
import io.cloudg.inventory.Asset;
import io.cloudg.resilience.config.RateLimitConfig;
import io.cloudg.sim.Changes;
import io.cloudg.sim.config.EstateSpec;
import io.cloudg.testkit.MapSchema;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cloudg diff} against the truth of a change: the demo estate mapped at generation 0 and at
 * generation 1 (cloud-sim removes, modifies and adds a seeded set of resources from one generation to the
 * next, and says which), then the two maps diffed: what the diff finds added, removed and changed (with the
 * field and its old and new value) is exactly what the simulator changed.
 */
class GenerationDiffEndToEndTest {
    @TempDir
    Path out;

    @AfterEach
    void mapsMatchTheSchema() {
        MapSchema.assertEveryMapValid(out);
    }

    private InventoryResult map(SimHarness h, Path dir) {
        CloudGConfig config = h.config(dir).providers("aws", "azure", "gcp")
                .azure(a -> a.withEndpoint(h.sim.azureEndpoint()).withTenant(h.sim.azureTenantId()))
                .gcp(g -> g.withEndpoint(h.sim.gcpTarget()).withOrganization(h.sim.estate().gcp().organization())).build();
        InventoryResult r = new InventoryMapper(config, SimHarness.governor(RateLimitConfig.defaults())).mapInventory();
        assertThat(r.complete()).isTrue();
        return r;
    }

    /**
     * The SDK's own tag list kept in the full resource detail ({@code attributes.Tags}, {@code attributes.TagSet}):
     * it changes with the tags, which the truth names as {@code tags.<key>}. Every other attribute must not change.
     */
    private static boolean rawTagList(String field) {
        return field.matches("attributes\\.(Tags|TagSet|TagList|tags|labels)");
    }

    @Test
    void theDiffOfTwoGenerationsIsTheSimulatorsTruthOfTheChange() {
        Changes truth;
        try (SimHarness before = new SimHarness(EstateSpec.defaultEstate(), null)) {
            map(before, out.resolve("gen0"));
        }
        try (SimHarness after = new SimHarness(EstateSpec.defaultEstate().withGeneration(1), null)) {
            map(after, out.resolve("gen1"));
            truth = after.sim.changes(0);
        }
        assertThat(truth.none()).isFalse();

        Set<String> added = new TreeSet<>();
        Set<String> removed = new TreeSet<>();
        Set<String> changed = new TreeSet<>();
        MapDiff.Counts c;
        try (DiffSide a = DiffSide.ofMap(out.resolve("gen0"), out, 1 << 20); DiffSide b = DiffSide.ofMap(out.resolve("gen1"), out, 1 << 20)) {
            c = MapDiff.compare(a, b, new MapDiff.Listener() {
                @Override
                public void added(Asset x) {
                    added.add(x.key());
                }

                @Override
                public void removed(Asset x) {
                    removed.add(x.key());
                }

                @Override
                public void changed(Asset x, Asset y, Map<String, MapDiff.FieldChange> fields) {
                    StringBuilder s = new StringBuilder(y.key());
                    fields.forEach((f, v) -> {
                        if (!rawTagList(f)) {
                            s.append(' ').append(f).append('=').append(v.before()).append("->").append(v.after());
                        }
                    });
                    changed.add(s.toString());
                }

                @Override
                public void coverage(MapDiff.CoverageChange x) {
                }
            });
        }
        Set<String> truthAdded = new TreeSet<>();
        truth.added().forEach(x -> truthAdded.add(x.key()));
        Set<String> truthRemoved = new TreeSet<>();
        truth.removed().forEach(x -> truthRemoved.add(x.key()));
        Set<String> truthChanged = new TreeSet<>();
        for (Changes.Change ch : truth.changed()) {
            StringBuilder s = new StringBuilder(ch.asset().key());
            ch.fields().forEach(f -> s.append(' ').append(f).append('=').append(ch.before().get(f)).append("->").append(ch.after().get(f)));
            truthChanged.add(s.toString());
        }
        assertThat(added).isEqualTo(truthAdded);
        assertThat(removed).isEqualTo(truthRemoved);
        assertThat(changed).isEqualTo(truthChanged);
        assertThat(c.added() + c.removed() + c.changed()).isPositive();
    }
}
