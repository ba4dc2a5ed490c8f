package io.cloudg.sim.quota;

import java.util.List;

/**
 * What the buckets of one call decided together: it proceeds only when every bucket admits it, and then
 * each of them is charged; when one refuses, none is.
 *
 * @param admissions each bucket's decision, in the order the buckets were given
 * @param refused    index of the bucket that refused (the one with the longest wait when several did), or
 *                   -1 when admitted
 */
public record Charge(List<Admission> admissions, int refused) {
    public Charge {
        admissions = List.copyOf(admissions);
    }

    public boolean admitted() {
        return refused < 0;
    }

    /** The refusing bucket's decision; null when admitted. */
    public Admission refusal() {
        return refused < 0 ? null : admissions.get(refused);
    }
}
