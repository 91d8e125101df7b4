package org.troupe.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.commons.configuration2.CompositeConfiguration;
import org.apache.commons.configuration2.ImmutableConfiguration;
import org.apache.commons.configuration2.MapConfiguration;
import org.apache.commons.configuration2.PropertiesConfiguration;
import org.apache.commons.configuration2.SystemConfiguration;
import org.apache.commons.configuration2.ex.ConfigurationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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

    /**
     * System property a launcher sets to {@code true} in the JVMs it starts with its own settings, which it checked
     * for unknown keys: they do not warn again, once per JVM of the job.
     */
    public static final String CHECKED_PROP_NAME = "troupe.config.checked";

    private static final Logger LOG = LoggerFactory.getLogger(TroupeSettings.class);

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
        PropertiesConfiguration fromFile = null;
        if (named != null || Files.isRegularFile(file)) {
            fromFile = readFile(file);
            settings.addConfiguration(fromFile);
        }
        if (CHECKED.compareAndSet(false, true)) {
            // Once per JVM: a mistyped key is otherwise ignored without a word, and components load often.
            final KnownSettings known = KnownSettings.documented();
            if (known == null) {
                LOG.debug(
                        "No {} beside {}: settings not checked for unknown keys",
                        KnownSettings.RESOURCE,
                        TroupeSettings.class);
            } else {
                unknownSettings(known, environment, fromFile, file).forEach(LOG::warn);
            }
        }
        return settings;
    }

    /** Whether this JVM's settings were checked for unknown keys. */
    private static final AtomicBoolean CHECKED = new AtomicBoolean();

    /**
     * A warning for each {@code troupe.*} key among the system properties and {@code file}'s (if read), and each
     * {@code TROUPE_*} variable of {@code environment}, that is not a setting of {@code known}.
     */
    static List<String> unknownSettings(
            final KnownSettings known,
            final Map<String, String> environment,
            final PropertiesConfiguration fromFile,
            final Path file) {
        if (Boolean.getBoolean(CHECKED_PROP_NAME)) {
            return List.of();
        }
        final List<String> warnings =
                new ArrayList<>(known.unknownKeys(System.getProperties().stringPropertyNames(), "(system property)"));
        if (fromFile != null) {
            final List<String> fileKeys = new ArrayList<>();
            fromFile.getKeys().forEachRemaining(fileKeys::add);
            warnings.addAll(known.unknownKeys(fileKeys, "in " + file.toAbsolutePath()));
        }
        warnings.addAll(known.unknownVariables(environment.keySet()));
        return warnings;
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
            final String owner = FileOwners.otherOwner(file);
            if (owner != null) {
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
