package org.troupe.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.commons.configuration2.CompositeConfiguration;
import org.apache.commons.configuration2.ImmutableConfiguration;
import org.apache.commons.configuration2.MapConfiguration;
import org.apache.commons.configuration2.PropertiesConfiguration;
import org.apache.commons.configuration2.SystemConfiguration;
import org.apache.commons.configuration2.ex.ConfigurationException;

/**
 * Loads the Troupe settings. Later sources win:
 * <ol>
 *   <li>built-in defaults (in each component's configuration class);</li>
 *   <li>{@code troupe.properties}: the file named by the system property {@value #FILE_PROP_NAME}, else
 *       {@code ./troupe.properties} if it exists;</li>
 *   <li>system properties ({@code -Dtroupe.serialization.maxDepth=20000});</li>
 *   <li>environment variables: the key upper-cased with dots as underscores
 *       ({@code TROUPE_SERIALIZATION_MAXDEPTH=20000}).</li>
 * </ol>
 */
public final class TroupeSettings {
    /** System property naming the properties file to read. */
    public static final String FILE_PROP_NAME = "troupe.config";

    private TroupeSettings() {}

    /** The settings of this JVM: environment, system properties and the properties file, if any. */
    public static ImmutableConfiguration load() {
        return load(System.getenv());
    }

    static ImmutableConfiguration load(final Map<String, String> environment) {
        final CompositeConfiguration settings = new CompositeConfiguration();
        settings.addConfiguration(new EnvironmentConfiguration(environment));
        settings.addConfiguration(new SystemConfiguration());
        final String named = System.getProperty(FILE_PROP_NAME);
        final Path file = Path.of(named != null ? named : "troupe.properties");
        if (named != null || Files.isRegularFile(file)) {
            settings.addConfiguration(readFile(file));
        }
        return settings;
    }

    private static PropertiesConfiguration readFile(final Path file) {
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException("Settings file " + file.toAbsolutePath() + " (named by -D"
                    + FILE_PROP_NAME + ") does not exist; create it or drop the property");
        }
        // Read directly: the file-based builders of commons-configuration need commons-beanutils, which is not here.
        final PropertiesConfiguration properties = new PropertiesConfiguration();
        try (Reader in = Files.newBufferedReader(file)) {
            properties.read(in);
        } catch (ConfigurationException | IOException e) {
            throw new IllegalArgumentException(
                    "Settings file " + file.toAbsolutePath() + " cannot be read: " + e.getMessage(), e);
        }
        final Iterator<String> keys = properties.getKeys();
        while (keys.hasNext()) {
            final String key = keys.next();
            if (key.endsWith(".secret")) {
                checkPrivate(file, key);
            }
        }
        return properties;
    }

    /**
     * A file that sets a secret must be the user's own and readable by nobody else: a troupe.properties that another
     * user could write, or read, in a shared working directory would hand the deployment to them.
     */
    private static void checkPrivate(final Path file, final String key) {
        final String problem;
        try {
            final Set<PosixFilePermission> perms = Files.getPosixFilePermissions(file);
            final String owner = Files.getOwner(file).getName();
            if (!owner.equals(System.getProperty("user.name"))) {
                problem = "belongs to " + owner;
            } else if (perms.stream().anyMatch(p -> !p.name().startsWith("OWNER"))) {
                problem = "is open to others (" + PosixFilePermissions.toString(perms) + ")";
            } else {
                return;
            }
        } catch (UnsupportedOperationException | IOException e) {
            throw new IllegalArgumentException(
                    "Settings file " + file.toAbsolutePath() + " sets " + key + " but its"
                            + " owner and permissions cannot be checked (" + e
                            + "); set the secret in a private file named by"
                            + " troupe.core.secretFile instead",
                    e);
        }
        throw new IllegalArgumentException("Settings file " + file.toAbsolutePath() + " sets " + key + " but " + problem
                + "; make it yours and private (chmod 600), or move the secret to a private file named by"
                + " troupe.core.secretFile");
    }

    /** The environment variable that sets {@code key}: {@code a.bC} is {@code A_BC}. */
    public static String environmentVariable(final String key) {
        return key.toUpperCase(Locale.ROOT).replace('.', '_');
    }

    /** Environment variables seen under the keys they stand for ({@link #environmentVariable}). */
    private static final class EnvironmentConfiguration extends MapConfiguration {
        EnvironmentConfiguration(final Map<String, String> environment) {
            super(Map.copyOf(environment));
        }

        private static String variable(final String key) {
            return environmentVariable(key);
        }

        @Override
        protected Object getPropertyInternal(final String key) {
            return super.getPropertyInternal(variable(key));
        }

        @Override
        protected boolean containsKeyInternal(final String key) {
            return super.containsKeyInternal(variable(key));
        }
    }
}
