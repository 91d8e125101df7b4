package org.troupe.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.apache.commons.configuration2.ImmutableConfiguration;
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
}
