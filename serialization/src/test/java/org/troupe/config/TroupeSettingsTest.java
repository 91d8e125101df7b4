package org.troupe.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.Map;
import org.apache.commons.configuration2.ImmutableConfiguration;
import org.junit.jupiter.api.Test;
import org.troupe.serialization.SerializationConfig;

class TroupeSettingsTest {
    @Test
    void shouldReadEnvironmentVariablesUnderTheirKeys() {
        final ImmutableConfiguration settings = TroupeSettings.load(
            Map.of("TROUPE_SERIALIZATION_MAXDEPTH", "123", "TROUPE_SERIALIZATION_ALLOWEDPACKAGES", "org.a, org.b"));
        final SerializationConfig config = SerializationConfig.fromSettings(settings);
        assertEquals(123, config.maxDepth());
        assertEquals(java.util.List.of("org.a", "org.b"), config.allowedPackages());
    }

    @Test
    void shouldLetTheEnvironmentWinOverSystemProperties() {
        System.setProperty("troupe.serialization.maxMessageBytes", "1000");
        try {
            assertEquals(1000, TroupeSettings.load(Map.of()).getInt("troupe.serialization.maxMessageBytes"));
            assertEquals(2000, TroupeSettings.load(Map.of("TROUPE_SERIALIZATION_MAXMESSAGEBYTES", "2000"))
                .getInt("troupe.serialization.maxMessageBytes"));
        } finally {
            System.clearProperty("troupe.serialization.maxMessageBytes");
        }
    }

    @Test
    void shouldKeepDefaultsForAbsentKeys() {
        final SerializationConfig config = SerializationConfig.fromSettings(TroupeSettings.load(Map.of()));
        assertEquals(SerializationConfig.MAX_DEPTH_DEFAULT, config.maxDepth());
        assertFalse(config.references());
    }
}
