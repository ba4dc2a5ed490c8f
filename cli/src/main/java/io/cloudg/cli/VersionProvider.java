package io.cloudg.cli;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.Enumeration;
import java.util.jar.Manifest;
import picocli.CommandLine;

/**
 * {@code cloudg --version}: the version and the commit the launcher's jar was built from, read from its
 * manifest ({@code Implementation-Version}, {@code Build-Commit}); {@code development build} when run from
 * classes that are not in a built jar.
 */
final class VersionProvider implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
        Manifest m = manifest();
        String version = m == null ? null : m.getMainAttributes().getValue("Implementation-Version");
        String commit = m == null ? null : m.getMainAttributes().getValue("Build-Commit");
        if (version == null) {
            return new String[] {"cloudg (development build, not from a packaged jar)"};
        }
        return new String[] {"cloudg " + version + (commit == null || commit.isBlank() ? "" : " (commit " + commit + ")"),
                "Java " + Runtime.version() + ", " + System.getProperty("java.vm.name")};
    }

    /** The manifest of the jar that holds this class. */
    private static Manifest manifest() {
        try {
            Enumeration<URL> all = VersionProvider.class.getClassLoader().getResources("META-INF/MANIFEST.MF");
            String own = VersionProvider.class.getProtectionDomain().getCodeSource().getLocation().toString();
            while (all.hasMoreElements()) {
                URL u = all.nextElement();
                if (u.toString().contains(own)) {
                    try (InputStream in = u.openStream()) {
                        return new Manifest(in);
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        return null;
    }
}
