package io.cloudg.diff;

import io.cloudg.inventory.Asset;
import io.cloudg.inventory.CoverageEntry;
import io.cloudg.inventory.CoverageStatus;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * What changed between two runs, by a merge of their assets in {@link AssetOrder}: each identity
 * ({@code provider, account, region, type, id}) only in the new run is added, only in the old one
 * removed, in both with other content changed (which fields: {@code service}, {@code name}, {@code arn},
 * {@code tags.<key>}, {@code attributes.<key>}). Coverage entries are compared by status: worse
 * (SUCCESS to PARTIAL, PARTIAL to FAILED...), better, appeared (only in the new run) or disappeared.
 * Memory holds one asset of each side and the coverage entries; the changes go to the {@link Listener}.
 */
public final class MapDiff {
    /** Hears each difference as it is found. */
    public interface Listener {
        void added(Asset a);

        void removed(Asset a);

        /** {@code fields}: each changed field with its old and new value. */
        void changed(Asset before, Asset after, Map<String, FieldChange> fields);

        void coverage(CoverageChange c);
    }

    /** A field's old and new value (null: absent). */
    public record FieldChange(Object before, Object after) {
    }

    /** How a coverage entry moved between the runs. */
    public enum Movement { WORSE, BETTER, APPEARED, DISAPPEARED }

    /** One coverage entry that is not the same in both runs; {@code before} or {@code after} is null when it is absent there. */
    public record CoverageChange(Movement movement, String id, CoverageEntry before, CoverageEntry after) {
    }

    /** The counts of a diff. */
    public record Counts(long added, long removed, long changed, long unchanged, long worse, long better, long appeared,
                         long disappeared) {
        /** Whether anything differs. */
        public boolean any() {
            return added + removed + changed + worse + better + appeared + disappeared > 0;
        }
    }

    private MapDiff() {
    }

    public static Counts compare(DiffSide before, DiffSide after, Listener l) {
        long added = 0;
        long removed = 0;
        long changed = 0;
        long unchanged = 0;
        Dedup a = new Dedup(before.assets());
        Dedup b = new Dedup(after.assets());
        Asset x = a.next();
        Asset y = b.next();
        while (x != null || y != null) {
            int c = x == null ? 1 : y == null ? -1 : AssetOrder.BY_KEY.compare(x, y);
            if (c < 0) {
                l.removed(x);
                removed++;
                x = a.next();
            } else if (c > 0) {
                l.added(y);
                added++;
                y = b.next();
            } else {
                Map<String, FieldChange> fields = fields(x, y);
                if (fields.isEmpty()) {
                    unchanged++;
                } else {
                    l.changed(x, y, fields);
                    changed++;
                }
                x = a.next();
                y = b.next();
            }
        }
        long[] moves = new long[Movement.values().length];
        TreeSet<String> ids = new TreeSet<>(before.coverage().keySet());
        ids.addAll(after.coverage().keySet());
        for (String id : ids) {
            CoverageEntry o = before.coverage().get(id);
            CoverageEntry n = after.coverage().get(id);
            Movement m = o == null ? Movement.APPEARED : n == null ? Movement.DISAPPEARED
                    : rank(n.status()) > rank(o.status()) ? Movement.WORSE
                    : rank(n.status()) < rank(o.status()) ? Movement.BETTER : null;
            if (m != null) {
                moves[m.ordinal()]++;
                l.coverage(new CoverageChange(m, id, o, n));
            }
        }
        return new Counts(added, removed, changed, unchanged, moves[Movement.WORSE.ordinal()], moves[Movement.BETTER.ordinal()],
                moves[Movement.APPEARED.ordinal()], moves[Movement.DISAPPEARED.ordinal()]);
    }

    private static int rank(CoverageStatus s) {
        return s.ordinal();
    }

    /** The fields that differ between two versions of one asset. */
    static Map<String, FieldChange> fields(Asset x, Asset y) {
        Map<String, FieldChange> out = new LinkedHashMap<>();
        field(out, "service", x.service(), y.service());
        field(out, "name", x.name(), y.name());
        field(out, "arn", x.arn(), y.arn());
        keys(out, "tags.", x.tags(), y.tags());
        keys(out, "attributes.", x.attributes(), y.attributes());
        return out;
    }

    private static void field(Map<String, FieldChange> out, String name, Object a, Object b) {
        if (!Objects.equals(a, b)) {
            out.put(name, new FieldChange(a, b));
        }
    }

    private static void keys(Map<String, FieldChange> out, String prefix, Map<String, ?> a, Map<String, ?> b) {
        TreeSet<String> all = new TreeSet<>(a.keySet());
        all.addAll(b.keySet());
        for (String k : all) {
            field(out, prefix + k, a.get(k), b.get(k));
        }
    }

    /** A sorted stream without repeats of one identity (a map may list an asset twice; the first counts). */
    private static final class Dedup {
        private final Iterator<Asset> in;
        private Asset last;

        Dedup(Iterator<Asset> in) {
            this.in = in;
        }

        Asset next() {
            while (in.hasNext()) {
                Asset a = in.next();
                if (last == null || AssetOrder.BY_KEY.compare(last, a) != 0) {
                    if (last != null && AssetOrder.BY_KEY.compare(last, a) > 0) {
                        throw new IllegalStateException("assets out of order: " + a.key() + " after " + last.key());
                    }
                    last = a;
                    return a;
                }
            }
            return null;
        }
    }
}
