package io.cloudg.sim.config;

/**
 * Which generation of the estate to serve ({@code generation:} and {@code generation_changes:} in the estate
 * file): generation 0 is the estate as generated; each next generation removes, modifies and adds a seeded set
 * of resources relative to the one before, so two runs against generations N and N+1 see a known change.
 *
 * <pre>
 * generation: 2
 * generation_changes: {added: 0.05, removed: 0.05, modified: 0.1}
 * </pre>
 *
 * <p>At each step every resource (accounts, subscriptions, projects, resource groups and the organization's
 * access role aside) is removed with probability {@code removed}, else modified with probability
 * {@code modified} (its {@code env} tag, or label, is set to {@code gen-N}; only resources whose listing
 * shows tags are modified: EC2 types, Azure resources, GCP assets), and gets a new sibling of its type with
 * probability {@code added}. The truth's {@code changes} lists what changed from the generation before.
 *
 * @param number   the generation served (0: as generated)
 * @param added    per resource and step, the chance a new sibling is added
 * @param removed  per resource and step, the chance it is removed
 * @param modified per resource and step, the chance its {@code env} tag changes
 */
public record GenerationSpec(int number, double added, double removed, double modified) {
    /** Generation 0 with the default shares (guessed). */
    public static final GenerationSpec FIRST = new GenerationSpec(0, 0.05, 0.05, 0.1);

    public GenerationSpec {
        if (number < 0) {
            throw new IllegalArgumentException("generation must not be negative: " + number);
        }
        for (double d : new double[] {added, removed, modified}) {
            if (!(d >= 0 && d <= 1)) {
                throw new IllegalArgumentException("generation shares must be from 0 to 1: " + d);
            }
        }
    }

    /** The same shares, generation {@code n}. */
    public GenerationSpec withNumber(int n) {
        return new GenerationSpec(n, added, removed, modified);
    }

    static GenerationSpec read(SpecNode number, SpecNode changes) {
        changes.onlyKeys("added", "removed", "modified");
        GenerationSpec d = FIRST;
        return new GenerationSpec(number.nonNegativeInt(0), changes.get("added").fraction(d.added(), false),
            changes.get("removed").fraction(d.removed(), false), changes.get("modified").fraction(d.modified(), false));
    }
}
