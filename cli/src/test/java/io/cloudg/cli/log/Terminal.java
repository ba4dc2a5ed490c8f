package io.cloudg.cli.log;

import java.util.ArrayList;
import java.util.List;

/**
 * What a terminal shows for a byte stream, as far as cloudg writes to one: printable text, {@code \n},
 * {@code \r} (back to column 0) and {@code ESC [K} (erase to the end of the line).
 */
final class Terminal {
    private Terminal() {
    }

    static List<String> screen(String output) {
        return screen(output, Integer.MAX_VALUE);
    }

    /**
     * As a terminal {@code width} columns wide shows it: a character past the last column goes to a new row (the
     * terminal wraps), and {@code \r} goes back to the start of the row the cursor is on, not of the line that
     * wrapped: so a redrawn line longer than the width leaves its first rows behind.
     */
    static List<String> screen(String output, int width) {
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        int col = 0;
        for (int i = 0; i < output.length(); i++) {
            char c = output.charAt(i);
            if (c == '\n') {
                lines.add(line.toString());
                line.setLength(0);
                col = 0;
            } else if (c == '\r') {
                col = 0;
            } else if (c == '\u001b' && output.startsWith("[K", i + 1)) {
                line.setLength(col);
                i += 2;
            } else {
                if (col >= width) {
                    lines.add(line.toString());
                    line.setLength(0);
                    col = 0;
                }
                if (col < line.length()) {
                    line.setCharAt(col, c);
                } else {
                    line.append(c);
                }
                col++;
            }
        }
        lines.add(line.toString());
        return lines;
    }
}
