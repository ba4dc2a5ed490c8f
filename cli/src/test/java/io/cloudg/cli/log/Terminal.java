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
