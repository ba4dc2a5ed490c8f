package io.cloudg.cli.log;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Fits a status line to a terminal's width, so that it never wraps: a wrapped line leaves a stale row on screen
 * at every redraw, since {@code \r} goes back to the start of the last row only. A status line reads
 * {@code [HEAD] FIELD, FIELD, ..., LAST}: the fields are listed most important first and the last one (the ETA)
 * is kept; the fields before it are dropped from the least important up until the line fits; then the last one;
 * then the head is cut with {@code ...}. The line takes at most {@code width - 1} columns: a character in the last
 * column leaves some terminals' cursor waiting to wrap.
 */
public final class StatusFit {
    private StatusFit() {
    }

    /** {@code line} in at most {@code width - 1} columns ({@code width} below 2: unchanged). */
    public static String fit(String line, int width) {
        int max = width - 1;
        if (width < 2 || line.length() <= max) {
            return line;
        }
        String head;
        String rest;
        int close = line.startsWith("[") ? line.indexOf("] ") : -1;
        if (close > 0) {
            head = line.substring(0, close + 1);
            rest = line.substring(close + 2);
        } else {
            head = "";
            rest = line;
        }
        List<String> fields = new ArrayList<>(Arrays.asList(rest.split(", ")));
        String last = fields.remove(fields.size() - 1);
        while (!fields.isEmpty()) {
            fields.remove(fields.size() - 1);
            String s = join(head, fields, last);
            if (s.length() <= max) {
                return s;
            }
        }
        if (!head.isEmpty() && head.length() <= max) {
            return head;
        }
        String s = head.isEmpty() ? last : head;
        return max <= 3 ? s.substring(0, max) : s.substring(0, max - 3) + "...";
    }

    private static String join(String head, List<String> fields, String last) {
        List<String> all = new ArrayList<>(fields);
        all.add(last);
        String body = String.join(", ", all);
        return head.isEmpty() ? body : head + " " + body;
    }
}
