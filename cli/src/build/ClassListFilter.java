import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * Build helper of class-data-archive.sh (run as a single-file source program): drops from a class list
 * ({@code -XX:DumpLoadedClassList}) the lambda proxies that name a class -Xshare:dump leaves out, which makes
 * JDK 17's dump crash (SIGSEGV in SystemDictionaryShared::adjust_lambda_proxy_class_dictionary). Left-out
 * classes are those of signed jars (Azure's are signed) and, with {@code --skipped LOG}, those a previous
 * dump's log reports as "Skipping".
 *
 * <p>Usage: {@code java ClassListFilter.java CLASSLIST LIB_DIR [--skipped DUMP_LOG] > FILTERED}
 */
public final class ClassListFilter {
    public static void main(String[] args) throws IOException {
        Path list = Path.of(args[0]);
        Set<String> excluded = signedJarClasses(Path.of(args[1]));
        if (args.length > 3 && args[2].equals("--skipped")) {
            for (String line : Files.readAllLines(Path.of(args[3]))) {
                int at = line.indexOf("Skipping ");
                int colon = line.indexOf(':', at + 1);
                if (at >= 0 && colon > at) {
                    excluded.add(line.substring(at + "Skipping ".length(), colon).trim());
                }
            }
        }
        List<String> kept = new ArrayList<>();
        int dropped = 0;
        for (String line : Files.readAllLines(list)) {
            if (line.startsWith("@lambda-proxy") && namesAny(line, excluded)) {
                dropped++;
            } else {
                kept.add(line);
            }
        }
        kept.forEach(System.out::println);
        System.err.println("class list: " + kept.size() + " lines kept, " + dropped
                + " lambda proxies naming left-out classes dropped");
    }

    /** Whether a lambda-proxy line names one of {@code classes}: its caller or a type in a descriptor. */
    static boolean namesAny(String line, Set<String> classes) {
        for (String token : line.split("[ ;()]+")) {
            String t = token.replaceFirst("^\\[*L", "");
            if (classes.contains(t)) {
                return true;
            }
        }
        return false;
    }

    static Set<String> signedJarClasses(Path lib) throws IOException {
        Set<String> out = new HashSet<>();
        try (Stream<Path> jars = Files.list(lib)) {
            for (Path jar : (Iterable<Path>) jars.filter(p -> p.toString().endsWith(".jar"))::iterator) {
                try (JarFile f = new JarFile(jar.toFile(), false)) {
                    boolean signed = f.stream().anyMatch(e -> e.getName().matches("META-INF/[^/]+\\.(SF|RSA|DSA|EC)"));
                    if (signed) {
                        f.stream().map(e -> e.getName()).filter(n -> n.endsWith(".class"))
                                .forEach(n -> out.add(n.substring(0, n.length() - ".class".length())));
                    }
                }
            }
        }
        return out;
    }
}
