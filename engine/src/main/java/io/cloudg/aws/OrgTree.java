package io.cloudg.aws;

import io.cloudg.resilience.config.ConfigErrors;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The organization's structure as discovery read it (Organizations ListRoots, ListOrganizationalUnitsForParent,
 * ListAccountsForParent): its root and units by id, each with its path from the root ({@code Root/Prod/Web}),
 * and the unit each account sits in directly. Pure: it answers which unit a selector names and whether an
 * account is in a unit or anywhere under it.
 *
 * @param units the root and every unit, by id
 * @param parentOf account id to the id of the root or unit it sits in directly
 */
record OrgTree(Map<String, Unit> units, Map<String, String> parentOf) {
    /** The root is always {@code Root} in paths, whatever its name. */
    static final String ROOT = "Root";

    /** The root ({@code parentId} null) or a unit. */
    record Unit(String id, String path, String parentId) {
    }

    OrgTree {
        units = Map.copyOf(units);
        parentOf = Map.copyOf(parentOf);
    }

    /**
     * The unit {@code selector} names: an id ({@code ou-...}, {@code r-...}) or a path, from the root
     * ({@code Root/Prod}) or under it ({@code Prod}).
     *
     * @throws io.cloudg.resilience.config.ConfigException naming {@code key} and the selector when the organization has no such unit
     */
    Unit resolve(String key, String selector) {
        Unit byId = units.get(selector);
        if (byId != null) {
            return byId;
        }
        String path = selector.equals(ROOT) || selector.startsWith(ROOT + "/") ? selector : ROOT + "/" + selector;
        for (Unit u : units.values()) {
            if (u.path().equals(path)) {
                return u;
            }
        }
        List<String> paths = units.values().stream().map(Unit::path).sorted().toList();
        String known = paths.size() <= 12 ? String.join(", ", paths)
                : paths.subList(0, 12).stream().collect(Collectors.joining(", ")) + " and " + (paths.size() - 12) + " more";
        throw ConfigErrors.mustBe(key + " entry", "an organizational unit of the organization, by id or path (it has "
                + known + ")", selector);
    }

    /** Whether {@code account} sits in {@code unit} or in a unit under it. */
    boolean within(String account, Unit unit) {
        String p = parentOf.get(account);
        while (p != null) {
            if (p.equals(unit.id())) {
                return true;
            }
            Unit u = units.get(p);
            p = u == null ? null : u.parentId();
        }
        return false;
    }

    /** The path of the unit {@code account} sits in, or null when the tree does not place it. */
    String pathOf(String account) {
        String p = parentOf.get(account);
        Unit u = p == null ? null : units.get(p);
        return u == null ? null : u.path();
    }
}
