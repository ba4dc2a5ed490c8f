package io.cloudg.mcp.guard;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * One request for a live operation, as the guard sees it.
 *
 * @param tool the MCP tool ({@code map_inventory}...)
 * @param identity what makes two calls identical: the tool and its canonical arguments without
 *        {@code force}; identical calls in flight at once share one run
 * @param scopes what the operation touches (see {@link LiveScopes}), never empty
 */
public record LiveCall(String tool, String identity, List<LiveScope> scopes) {
    public LiveCall {
        if (scopes.isEmpty()) {
            throw new IllegalArgumentException("a live call needs at least one scope: " + identity);
        }
        scopes = List.copyOf(new TreeSet<>(scopes));
    }

    /** The providers of the scopes, sorted. */
    public Set<String> providers() {
        TreeSet<String> p = new TreeSet<>();
        scopes.forEach(s -> p.add(s.provider()));
        return p;
    }

    public List<String> scopeNames() {
        return scopes.stream().map(LiveScope::toString).toList();
    }
}
