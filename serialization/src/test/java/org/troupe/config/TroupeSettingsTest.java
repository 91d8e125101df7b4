package org.troupe.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.commons.configuration2.ImmutableConfiguration;
import org.apache.commons.configuration2.PropertiesConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.troupe.serialization.SerializationConfig;

class TroupeSettingsTest {
    @Test
    void shouldReadEnvironmentVariablesUnderTheirKeys() {
        final ImmutableConfiguration settings = TroupeSettings.load(
                Map.of("TROUPE_SERIALIZATION_MAXDEPTH", "123", "TROUPE_SERIALIZATION_ALLOWEDPACKAGES", "org.a, org.b"));
        final SerializationConfig config = SerializationConfig.fromSettings(settings);
        assertEquals(123, config.maxDepth());
        assertEquals(List.of("org.a", "org.b"), config.allowedPackages());
    }

    @Test
    void shouldLetTheEnvironmentWinOverSystemProperties() {
        System.setProperty("troupe.serialization.maxMessageBytes", "1000");
        try {
            assertEquals(1000, TroupeSettings.load(Map.of()).getInt("troupe.serialization.maxMessageBytes"));
            assertEquals(
                    2000,
                    TroupeSettings.load(Map.of("TROUPE_SERIALIZATION_MAXMESSAGEBYTES", "2000"))
                            .getInt("troupe.serialization.maxMessageBytes"));
        } finally {
            System.clearProperty("troupe.serialization.maxMessageBytes");
        }
    }

    @Test
    void shouldRefuseASecretFromASettingsFileOthersCanRead(@TempDir final Path dir) throws Exception {
        final Path file = dir.resolve("troupe.properties");
        Files.writeString(file, "troupe.serialization.maxDepth=77\ntroupe.core.secret=" + "s".repeat(40) + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        System.setProperty(TroupeSettings.FILE_PROP_NAME, file.toString());
        try {
            final IllegalArgumentException e =
                    assertThrows(IllegalArgumentException.class, () -> TroupeSettings.load(Map.of()));
            assertTrue(
                    e.getMessage().contains("troupe.core.secret")
                            && e.getMessage().contains("chmod 600")
                            && e.getMessage().contains("rw-r--r--"),
                    e.getMessage());
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
            assertEquals("s".repeat(40), TroupeSettings.load(Map.of()).getString("troupe.core.secret"));
            Files.writeString(file, "troupe.serialization.maxDepth=77\n");
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
            assertEquals(
                    77,
                    TroupeSettings.load(Map.of()).getInt("troupe.serialization.maxDepth"),
                    "a file without a secret may be read by anyone");
        } finally {
            System.clearProperty(TroupeSettings.FILE_PROP_NAME);
        }
    }

    @Test
    void shouldKeepDefaultsForAbsentKeys() {
        final SerializationConfig config = SerializationConfig.fromSettings(TroupeSettings.load(Map.of()));
        assertEquals(SerializationConfig.MAX_DEPTH_DEFAULT, config.maxDepth());
        assertFalse(config.references());
    }

    @Test
    void shouldNameTheNearestSettingForEachMistypedKeyOfEachSource(@TempDir final Path dir) throws Exception {
        final Path file = dir.resolve("troupe.properties");
        Files.writeString(file, "troupe.core.transprt=tcp\ntroupe.core.port=0\nother.key=1\n");
        final PropertiesConfiguration fromFile = new PropertiesConfiguration();
        try (Reader in = Files.newBufferedReader(file)) {
            fromFile.read(in);
        }
        System.setProperty("troupe.serialization.maxDeph", "10");
        try {
            final List<String> warnings = TroupeSettings.unknownSettings(
                    KnownSettings.documented(),
                    Map.of("TROUPE_CORE_TRANSPRT", "tcp", "TROUPE_CORE_SPINMICROS", "0", "PATH", "/bin"),
                    fromFile,
                    file);
            assertEquals(3, warnings.size(), String.join("\n", warnings));
            assertTrue(
                    warnings.get(0).startsWith("Unknown setting troupe.serialization.maxDeph (system property)")
                            && warnings.get(0).contains("did you mean troupe.serialization.maxDepth?"),
                    warnings.get(0));
            assertTrue(
                    warnings.get(1).startsWith("Unknown setting troupe.core.transprt in " + file.toAbsolutePath())
                            && warnings.get(1).contains("did you mean troupe.core.transport?"),
                    warnings.get(1));
            assertTrue(
                    warnings.get(2).startsWith("Unknown setting TROUPE_CORE_TRANSPRT (environment variable)")
                            && warnings.get(2).contains("did you mean TROUPE_CORE_TRANSPORT (troupe.core.transport)?"),
                    warnings.get(2));
        } finally {
            System.clearProperty("troupe.serialization.maxDeph");
        }
    }

    @Test
    void shouldNotWarnAgainInAJvmItsLauncherChecked() {
        final Map<String, String> env = Map.of("TROUPE_CORE_TRANSPRT", "tcp");
        assertEquals(
                1,
                TroupeSettings.unknownSettings(KnownSettings.documented(), env, null, Path.of("x"))
                        .size());
        System.setProperty(TroupeSettings.CHECKED_PROP_NAME, "true");
        try {
            assertEquals(
                    List.of(), TroupeSettings.unknownSettings(KnownSettings.documented(), env, null, Path.of("x")));
        } finally {
            System.clearProperty(TroupeSettings.CHECKED_PROP_NAME);
        }
    }

    @Test
    void shouldKnowTheSettingsOfEveryModuleAndThoseTheLaunchersSet() {
        final Set<String> keys = KnownSettings.documented().keys();
        for (final String key : List.of(
                SerializationConfig.MAX_DEPTH_PROP_NAME,
                SerializationConfig.ALLOWED_PACKAGES_PROP_NAME,
                TroupeSettings.FILE_PROP_NAME,
                "troupe.core.transport",
                "troupe.deploy.relayOutput",
                "troupe.home")) {
            assertTrue(keys.contains(key), key + " in " + keys);
        }
        assertTrue(
                TroupeSettings.unknownSettings(
                                new KnownSettings(keys), Map.of("TROUPE_HOME", "/opt/troupe"), null, Path.of("x"))
                        .stream()
                        .noneMatch(w -> w.contains("TROUPE_HOME")),
                "a variable that stands for a known key is one");
    }

    @Test
    void shouldReadTheKeysFromTheFirstCellOfTheTablesRows() {
        assertEquals(
                Set.of("troupe.a.b", "troupe.config"),
                KnownSettings.parse(List.of(
                        "| key | default | meaning |",
                        "| `troupe.a.b` | `1` | uses `troupe.c.d` |",
                        "| `troupe.config` (system property only) | x | y |",
                        "Text naming `troupe.e.f`.")));
    }
}
