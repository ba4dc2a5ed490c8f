package io.cloudg.aws;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A derived attribute of the catalog: a small projection of an SDK answer that scanners read by name
 * ({@code mfa_devices}, {@code acl_public}, {@code ingress}). Forms:
 * <ul>
 *   <li>{@code Path.To.Member}: the first value there (absent when there is none);</li>
 *   <li>{@code count(Path)}: how many values the path reaches;</li>
 *   <li>{@code list(Path)}: every value the path reaches;</li>
 *   <li>{@code any(Path == 'v')} and {@code any(Path in ['a', 'b'])}: whether any value is one of those;</li>
 *   <li>a map {@code {each: Path, fields: {name: <form>...}}}: one map per value the path reaches.</li>
 * </ul>
 */
sealed interface Derive {
    /** The derived value, or null when the answer does not hold it. */
    Object eval(Object root);

    Pattern CALL = Pattern.compile("(count|list|any)\\((.+)\\)");
    Pattern EQ = Pattern.compile("\\s*([\\w.]+)\\s*==\\s*'([^']*)'\\s*");
    Pattern IN = Pattern.compile("\\s*([\\w.]+)\\s+in\\s+\\[(.*)]\\s*");
    Pattern PATH = Pattern.compile("[A-Za-z][\\w]*(\\.[A-Za-z][\\w]*)*");

    /** Reads one form; {@code where} names it in errors. */
    static Derive parse(Object spec, String where) {
        if (spec instanceof Map<?, ?> m) {
            Object each = m.get("each");
            Object fields = m.get("fields");
            if (!(each instanceof String p) || !(fields instanceof Map<?, ?> f) || m.size() != 2) {
                throw new IllegalArgumentException(where + " must be {each: Path, fields: {...}}, but was " + spec);
            }
            Map<String, Derive> out = new LinkedHashMap<>();
            f.forEach((k, v) -> out.put(String.valueOf(k), parse(v, where + "." + k)));
            return new Each(path(p, where), out);
        }
        String s = String.valueOf(spec).trim();
        Matcher c = CALL.matcher(s);
        if (c.matches()) {
            String arg = c.group(2);
            switch (c.group(1)) {
                case "count":
                    return new Count(path(arg, where));
                case "list":
                    return new All(path(arg, where));
                default:
                    Matcher eq = EQ.matcher(arg);
                    if (eq.matches()) {
                        return new Any(path(eq.group(1), where), List.of(eq.group(2)));
                    }
                    Matcher in = IN.matcher(arg);
                    if (in.matches()) {
                        List<String> values = new ArrayList<>();
                        for (String v : in.group(2).split(",")) {
                            String t = v.trim();
                            if (t.length() < 2 || !t.startsWith("'") || !t.endsWith("'")) {
                                throw new IllegalArgumentException(where + " must list quoted values, but was " + s);
                            }
                            values.add(t.substring(1, t.length() - 1));
                        }
                        return new Any(path(in.group(1), where), values);
                    }
                    throw new IllegalArgumentException(where + " must be any(Path == 'v') or any(Path in ['a']), but was " + s);
            }
        }
        return new First(path(s, where));
    }

    private static String path(String p, String where) {
        String t = p.trim();
        if (!t.equals(".") && !PATH.matcher(t).matches()) {
            throw new IllegalArgumentException(where + " must be a member path like PolicyStatus.IsPublic, but was " + p);
        }
        return t;
    }

    record First(String path) implements Derive {
        @Override
        public Object eval(Object root) {
            Object v = SdkModel.first(root, path);
            return v == null ? null : SdkModel.plain(v);
        }
    }

    record Count(String path) implements Derive {
        @Override
        public Object eval(Object root) {
            return SdkModel.path(root, path).size();
        }
    }

    record All(String path) implements Derive {
        @Override
        public Object eval(Object root) {
            List<Object> out = new ArrayList<>();
            for (Object o : SdkModel.path(root, path)) {
                out.add(SdkModel.plain(o));
            }
            return out;
        }
    }

    record Any(String path, List<String> values) implements Derive {
        @Override
        public Object eval(Object root) {
            for (Object o : SdkModel.path(root, path)) {
                if (values.contains(SdkModel.text(o))) {
                    return true;
                }
            }
            return false;
        }
    }

    record Each(String path, Map<String, Derive> fields) implements Derive {
        @Override
        public Object eval(Object root) {
            List<Object> out = new ArrayList<>();
            for (Object o : SdkModel.path(root, path)) {
                Map<String, Object> m = new LinkedHashMap<>();
                fields.forEach((k, d) -> m.put(k, d.eval(o)));
                out.add(m);
            }
            return out;
        }
    }
}
