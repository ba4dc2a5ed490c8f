package io.cloudg.preload;

import java.nio.file.Path;

/** The preload's warnings, worded in one place. None stops anything: a map without a preload runs as before. */
final class PreloadProblems {
    private PreloadProblems() {
    }

    static String unreadableList(Path file, Exception e) {
        return "class list " + file + " (" + PreloadConfig.LIST_PROPERTY + ") could not be read, so classes load on "
                + "the jobs' virtual threads as they are first used: " + e;
    }

    static String failed(Throwable e) {
        return "preloading classes failed, so the rest load on the jobs' virtual threads as they are first used: " + e;
    }

    static String stillLoading(long seconds) {
        return "classes still preloading after " + seconds + " s; the jobs start anyway";
    }
}
