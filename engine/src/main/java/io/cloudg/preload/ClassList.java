package io.cloudg.preload;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The binary names of the classes to load, in the order given, each once.
 *
 * <p>{@link #parse} reads the JVM's {@code -XX:DumpLoadedClassList} format ({@code java/lang/Object id: 0}, a
 * class a line, {@code @} lines for lambda forms and proxies) as well as plain binary names; it MUST skip what
 * names no loadable class ({@code @} and {@code #} lines, blank lines, hidden classes) and MUST NOT fail on a
 * line it does not understand: a list is an optimisation's input, never a reason to stop a map.
 *
 * @param names binary names ({@code java.lang.Object}), no duplicates
 */
public record ClassList(List<String> names) {
    public static final ClassList EMPTY = new ClassList(List.of());

    public ClassList {
        names = List.copyOf(names);
    }

    /** The classes {@code lines} name, in their order, each once. */
    public static ClassList parse(Iterable<String> lines) {
        Set<String> names = new LinkedHashSet<>();
        for (String line : lines) {
            String s = line.strip();
            if (s.isEmpty() || s.startsWith("@") || s.startsWith("#")) {
                continue;
            }
            int space = s.indexOf(' ');
            String name = (space < 0 ? s : s.substring(0, space)).replace('/', '.');
            if (!name.contains("0x") && !name.contains("$$Lambda") && !name.startsWith("[")) {
                names.add(name);
            }
        }
        return new ClassList(new ArrayList<>(names));
    }

    public int size() {
        return names.size();
    }

    /** Slice {@code k} of {@code n}: every n-th name from the k-th, so that each slice walks the list's order. */
    List<String> slice(int k, int n) {
        List<String> out = new ArrayList<>(names.size() / n + 1);
        for (int i = k; i < names.size(); i += n) {
            out.add(names.get(i));
        }
        return out;
    }
}
