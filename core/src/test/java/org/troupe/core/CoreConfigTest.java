package org.troupe.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.Map;
import org.apache.commons.configuration2.MapConfiguration;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CoreConfigTest {
    @Test
    void shouldRefuseASecretTooShortToResistGuessingAndSayHowToMakeOne() {
        final IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> CoreConfig.builder().secret("a-password-of-31-characters-xyz"));
        assertTrue(
                e.getMessage().contains(CoreConfig.SECRET_PROP_NAME)
                        && e.getMessage().contains("32")
                        && e.getMessage().contains("openssl rand -hex 16"),
                e.getMessage());
        assertEquals(
                "0123456789abcdef0123456789abcdef",
                CoreConfig.builder()
                        .secret("0123456789abcdef0123456789abcdef")
                        .build()
                        .secret());
    }

    @Test
    void shouldMakeUpASecretOfMoreThan128BitsWhenNoneIsGiven() {
        final String secret = CoreConfig.builder().build().secret();
        assertTrue(secret.matches("[0-9a-f]{48}"), secret);
    }

    @Test
    void shouldRefuseASecretFileTooShortOrOpenToOthers(@TempDir final Path dir) throws Exception {
        final Path file = dir.resolve("secret");
        Files.writeString(file, "short\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        assertThrows(IllegalArgumentException.class, () -> CoreConfig.builder().secretFile(file));
        Files.writeString(file, "0123456789abcdef0123456789abcdef\n");
        assertEquals(
                "0123456789abcdef0123456789abcdef",
                CoreConfig.builder().secretFile(file).build().secret());
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r-----"));
        final IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> CoreConfig.builder().secretFile(file));
        assertTrue(e.getMessage().contains("chmod 600"), e.getMessage());
    }

    /** A user with no name (no entry in the password file, as in many containers) still owns their file. */
    @Test
    void shouldTakeTheUsersOwnSecretFileWhenTheUserHasNoName(@TempDir final Path dir) throws Exception {
        final Path file = dir.resolve("secret");
        Files.writeString(file, "0123456789abcdef0123456789abcdef\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        final String name = System.getProperty("user.name");
        System.setProperty("user.name", "?"); // what the JVM sets for a uid without a name
        try {
            assertEquals(
                    "0123456789abcdef0123456789abcdef",
                    CoreConfig.builder().secretFile(file).build().secret());
        } finally {
            System.setProperty("user.name", name);
        }
    }

    @Test
    void shouldRefuseAPrivateSecretFileOfAnotherUser(@TempDir final Path dir) throws Exception {
        final Path file = dir.resolve("secret");
        Files.writeString(file, "0123456789abcdef0123456789abcdef\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        final UserPrincipal nobody;
        try {
            nobody = file.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
            Files.setOwner(file, nobody);
        } catch (IOException e) {
            Assumptions.abort("giving a file to user nobody needs root: " + e);
            return;
        }
        final IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> CoreConfig.builder().secretFile(file));
        assertTrue(
                e.getMessage().contains(CoreConfig.SECRET_FILE_PROP_NAME)
                        && e.getMessage().contains("belongs to nobody"),
                e.getMessage());
    }

    @Test
    void shouldAuthenticateFramesUnlessToldNotToAndRefuseAnythingButTrueOrFalse() {
        assertTrue(CoreConfig.builder().build().authenticateFrames());
        assertTrue(CoreConfig.fromSettings(new MapConfiguration(Map.of())).authenticateFrames());
        assertFalse(
                CoreConfig.fromSettings(new MapConfiguration(Map.of(CoreConfig.AUTHENTICATE_FRAMES_PROP_NAME, "false")))
                        .authenticateFrames());
        final IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> CoreConfig.fromSettings(
                        new MapConfiguration(Map.of(CoreConfig.AUTHENTICATE_FRAMES_PROP_NAME, "no"))));
        assertTrue(
                e.getMessage().contains(CoreConfig.AUTHENTICATE_FRAMES_PROP_NAME)
                        && e.getMessage().contains("'no'"),
                e.getMessage());
    }

    @Test
    void shouldRefuseANumberOrSwitchItCannotReadNamingTheKeyAndTheValue() {
        final Map<String, String> bad = Map.of(
                CoreConfig.SHM_RING_BYTES_PROP_NAME, "4M",
                CoreConfig.SPIN_PROP_NAME, "lots",
                CoreConfig.CALL_TIMEOUT_PROP_NAME, "5s",
                CoreConfig.WAIT_BACKOFF_PROP_NAME, "maybe");
        bad.forEach((key, value) -> {
            final IllegalArgumentException e = assertThrows(
                    IllegalArgumentException.class,
                    () -> CoreConfig.fromSettings(new MapConfiguration(Map.of(key, value))),
                    key);
            assertTrue(e.getMessage().startsWith(key + " must be "), e.getMessage());
            assertTrue(e.getMessage().contains("'" + value + "'"), e.getMessage());
        });
    }

    @Test
    void shouldBackWaitsOffOnACrowdedHostUnlessToldNotTo() {
        assertTrue(CoreConfig.fromSettings(new MapConfiguration(Map.of())).waitBackoff());
        assertFalse(CoreConfig.fromSettings(new MapConfiguration(Map.of(CoreConfig.WAIT_BACKOFF_PROP_NAME, "false")))
                .waitBackoff());
    }

    @Test
    void shouldListenOnLoopbackAndChooseWhatToAnnounceUnlessTold() {
        final CoreConfig defaults = CoreConfig.fromSettings(new MapConfiguration(Map.of()));
        assertEquals("127.0.0.1", defaults.bindAddress());
        assertEquals("", defaults.advertiseAddress());
        final CoreConfig set = CoreConfig.fromSettings(new MapConfiguration(Map.of(
                CoreConfig.BIND_ADDRESS_PROP_NAME,
                " 0.0.0.0 ",
                CoreConfig.ADVERTISE_ADDRESS_PROP_NAME,
                "front.example")));
        assertEquals("0.0.0.0", set.bindAddress());
        assertEquals("front.example", set.advertiseAddress());
        assertEquals(
                "fd00::1", CoreConfig.builder().bindAddress("[fd00::1]").build().bindAddress());
    }

    /** A deployment may choose where to listen only where nobody did: loopback set on purpose is a choice too. */
    @Test
    void shouldTellABindAddressSomebodyChoseFromTheDefault() {
        assertFalse(CoreConfig.fromSettings(new MapConfiguration(Map.of())).bindAddressChosen());
        assertFalse(CoreConfig.builder().build().bindAddressChosen());
        assertTrue(CoreConfig.fromSettings(new MapConfiguration(Map.of(CoreConfig.BIND_ADDRESS_PROP_NAME, "127.0.0.1")))
                .bindAddressChosen());
        assertTrue(CoreConfig.builder().bindAddress("127.0.0.1").build().bindAddressChosen());
    }

    @Test
    void shouldRefuseAnAddressWithAPortOrAWildcardToAdvertiseAndSayWhatToSet() {
        final IllegalArgumentException port = assertThrows(
                IllegalArgumentException.class, () -> CoreConfig.builder().bindAddress("10.213.0.1:4000"));
        assertTrue(
                port.getMessage().contains(CoreConfig.BIND_ADDRESS_PROP_NAME)
                        && port.getMessage().contains(CoreConfig.PORT_PROP_NAME)
                        && port.getMessage().contains("'10.213.0.1:4000'"),
                port.getMessage());
        assertThrows(IllegalArgumentException.class, () -> CoreConfig.builder().bindAddress(""));
        assertThrows(IllegalArgumentException.class, () -> CoreConfig.builder().advertiseAddress("a host"));
        final IllegalArgumentException wildcard = assertThrows(
                IllegalArgumentException.class, () -> CoreConfig.builder().advertiseAddress("0.0.0.0"));
        assertTrue(
                wildcard.getMessage().contains(CoreConfig.ADVERTISE_ADDRESS_PROP_NAME)
                        && wildcard.getMessage().contains("leave it empty"),
                wildcard.getMessage());
    }

    @Test
    void shouldLetSettingsBeChangedBeforeTheConfigIsBuilt() {
        final MapConfiguration settings = new MapConfiguration(Map.of(CoreConfig.HEARTBEAT_PROP_NAME, "300"));
        final CoreConfig config =
                CoreConfig.builder(settings).bindAddress("10.213.0.2").build();
        assertEquals("10.213.0.2", config.bindAddress());
        assertEquals(300, config.heartbeat().toMillis(), "the settings' other values stay");
    }
}
