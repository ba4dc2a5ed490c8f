package io.cloudg.inventory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.NotLinkException;
import java.nio.file.Path;
import java.util.Map;

/**
 * Messages about files that say what the operating system answered. Java leaves the answer out of the
 * message of its commonest file exceptions (an {@link AccessDeniedException}'s message is only its path, never
 * "Permission denied"), so a bare {@code e.getMessage()} tells a user which file but not why; these messages
 * say both, and which file the system refused when it is not the one the user knows (a parent directory, a
 * file written beside the target).
 */
public final class FileErrors {
    /** The system's words for the exceptions Java raises without them. */
    private static final Map<Class<? extends FileSystemException>, String> WORDS = Map.of(
            AccessDeniedException.class, "Permission denied",
            NoSuchFileException.class, "No such file or directory",
            FileAlreadyExistsException.class, "File exists",
            NotDirectoryException.class, "Not a directory",
            DirectoryNotEmptyException.class, "Directory not empty",
            NotLinkException.class, "Not a symbolic link",
            FileSystemLoopException.class, "Too many levels of symbolic links");

    private FileErrors() {
    }

    /**
     * {@code cannot <what> <path>: <reason>}, e.g. {@code cannot write out/runs/r1/inventory-map.json: Not a
     * directory (out/runs/r1)}, with {@code e} as the cause.
     */
    public static UncheckedIOException cannot(String what, Path path, IOException e) {
        return new UncheckedIOException("cannot " + what + " " + path + ": " + reason(e, path), e);
    }

    /**
     * What the system answered for {@code e} ({@code Permission denied}, {@code Not a directory}, {@code No
     * such file or directory}...), followed by the file it concerned in parentheses when that is not {@code path}
     * (nor, for a rename, its target).
     */
    public static String reason(IOException e, Path path) {
        if (e instanceof FileSystemException f) {
            String reason = f.getReason();
            if (reason == null || reason.isBlank()) {
                reason = standardReason(f);
            }
            String file = f.getFile();
            boolean named = path != null && (file != null && samePath(file, path)
                    || f.getOtherFile() != null && samePath(f.getOtherFile(), path));
            return file == null || named ? reason : reason + " (" + file + ")";
        }
        String m = e.getMessage();
        return m == null || m.isBlank() ? e.getClass().getSimpleName() : m;
    }

    private static boolean samePath(String file, Path path) {
        try {
            return Path.of(file).toAbsolutePath().normalize().equals(path.toAbsolutePath().normalize());
        } catch (RuntimeException e) {
            return false;
        }
    }

    private static String standardReason(FileSystemException f) {
        for (Map.Entry<Class<? extends FileSystemException>, String> w : WORDS.entrySet()) {
            if (w.getKey().isInstance(f)) {
                return w.getValue();
            }
        }
        return f.getClass().getSimpleName();
    }
}
