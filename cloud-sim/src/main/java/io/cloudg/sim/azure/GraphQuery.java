package io.cloudg.sim.azure;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The part of the Kusto query language the simulator's Resource Graph understands:
 * <pre>
 * Resources | ResourceContainers
 *   | where COLUMN (== | =~ | != | !~) 'value' [and ...]
 *   | where COLUMN (in | in~) ('a', 'b')
 *   | project COLUMN, ...
 *   | order by COLUMN [asc | desc]        (or sort by)
 *   | limit N                             (or take N)
 * </pre>
 * Anything else is refused with Resource Graph's {@code BadRequest} / invalid-query error rather than
 * answered wrongly.
 */
record GraphQuery(String table, List<Predicate<GraphRow>> filters, List<String> projection,
                  Comparator<GraphRow> order, Integer limit) {

    private static final Pattern COMPARE = Pattern.compile("(\\w+)\\s*(==|=~|!=|!~)\\s*(['\"])(.*?)\\3");
    private static final Pattern IN = Pattern.compile("(\\w+)\\s+(in~?)\\s*\\((.*)\\)");
    private static final Pattern ORDER = Pattern.compile("(?:order|sort)\\s+by\\s+(\\w+)(?:\\s+(asc|desc))?");
    private static final Pattern LIMIT = Pattern.compile("(?:limit|take)\\s+(\\d+)");
    private static final Pattern PROJECT = Pattern.compile("project\\s+(.+)");

    static GraphQuery parse(String query) {
        if (query == null || query.isBlank()) {
            throw AzureErrors.invalidQuery("The query is empty.");
        }
        List<String> stages = splitPipes(query.trim());
        String table = stages.get(0).trim();
        String t = table.toLowerCase(Locale.ROOT);
        if (!t.equals("resources") && !t.equals("resourcecontainers")) {
            throw AzureErrors.invalidQuery("Table '" + table + "' is not supported by cloud-sim (Resources, "
                + "ResourceContainers).");
        }
        List<Predicate<GraphRow>> filters = new ArrayList<>();
        List<String> projection = null;
        Comparator<GraphRow> order = null;
        Integer limit = null;
        for (String raw : stages.subList(1, stages.size())) {
            String s = raw.trim();
            Matcher m;
            if (s.startsWith("where ")) {
                for (String cond : s.substring(6).split("\\s+and\\s+")) {
                    filters.add(condition(cond.trim()));
                }
            } else if ((m = PROJECT.matcher(s)).matches()) {
                projection = new ArrayList<>();
                for (String c : m.group(1).split(",")) {
                    String col = c.trim();
                    if (!GraphRow.known(col)) {
                        throw AzureErrors.invalidQuery("Column '" + col + "' does not exist in the table.");
                    }
                    projection.add(col);
                }
            } else if ((m = ORDER.matcher(s)).matches()) {
                String col = m.group(1);
                if (!GraphRow.known(col)) {
                    throw AzureErrors.invalidQuery("Column '" + col + "' does not exist in the table.");
                }
                Comparator<GraphRow> c = Comparator.comparing(r -> String.valueOf(r.column(col)));
                order = "desc".equals(m.group(2)) ? c.reversed() : c;
            } else if ((m = LIMIT.matcher(s)).matches()) {
                limit = Integer.parseInt(m.group(1));
            } else {
                throw AzureErrors.invalidQuery("The operator in '" + s + "' is not supported by cloud-sim.");
            }
        }
        return new GraphQuery(t, List.copyOf(filters), projection == null ? List.of(GraphRow.COLUMNS) : projection,
            order, limit);
    }

    boolean containers() {
        return table.equals("resourcecontainers");
    }

    private static Predicate<GraphRow> condition(String cond) {
        Matcher m = COMPARE.matcher(cond);
        if (m.matches()) {
            String col = column(m.group(1));
            String op = m.group(2);
            String v = m.group(4);
            return switch (op) {
                case "==" -> r -> v.equals(String.valueOf(r.column(col)));
                case "!=" -> r -> !v.equals(String.valueOf(r.column(col)));
                case "=~" -> r -> v.equalsIgnoreCase(String.valueOf(r.column(col)));
                default -> r -> !v.equalsIgnoreCase(String.valueOf(r.column(col)));
            };
        }
        m = IN.matcher(cond);
        if (m.matches()) {
            String col = column(m.group(1));
            boolean ci = m.group(2).equals("in~");
            List<String> values = new ArrayList<>();
            for (String item : m.group(3).split(",")) {
                String x = item.trim();
                if (x.length() < 2 || (x.charAt(0) != '\'' && x.charAt(0) != '"') || x.charAt(x.length() - 1) != x.charAt(0)) {
                    throw AzureErrors.invalidQuery("Expected a quoted string in '" + cond + "'.");
                }
                values.add(ci ? x.substring(1, x.length() - 1).toLowerCase(Locale.ROOT) : x.substring(1, x.length() - 1));
            }
            return r -> {
                String val = String.valueOf(r.column(col));
                return values.contains(ci ? val.toLowerCase(Locale.ROOT) : val);
            };
        }
        throw AzureErrors.invalidQuery("The condition '" + cond + "' is not supported by cloud-sim.");
    }

    private static String column(String c) {
        if (!GraphRow.known(c)) {
            throw AzureErrors.invalidQuery("Column '" + c + "' does not exist in the table.");
        }
        return c;
    }

    private static List<String> splitPipes(String q) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        char quote = 0;
        for (char c : q.toCharArray()) {
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                }
                cur.append(c);
            } else if (c == '\'' || c == '"') {
                quote = c;
                cur.append(c);
            } else if (c == '|') {
                out.add(cur.toString());
                cur.setLength(0);
            } else {
                cur.append(c);
            }
        }
        out.add(cur.toString());
        return Arrays.asList(out.toArray(String[]::new));
    }
}
