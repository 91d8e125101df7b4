package org.troupe.core.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.troupe.core.CoreConfig;
import org.troupe.core.TroupeRuntime;
import org.troupe.core.exceptions.TroupeException;
import org.troupe.core.transport.tcp.TcpTransport;

class TransportsTest {
    @Test
    void shouldFindTheTcpTransportByItsName() {
        assertEquals(List.of("tcp", "auto", "shm", "local"), Transports.names());
        try (Transport t = Transports.create("tcp", "rt-test", settings())) {
            assertInstanceOf(TcpTransport.class, t);
        }
    }

    @Test
    void shouldNameTheTransportsThereAreWhenAskedForAnUnknownOne() {
        final IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> Transports.create("udp", "rt-test", settings()));
        assertEquals(
                "troupe.core.transport=udp names no transport of this JVM; it has [tcp, auto, shm, local]",
                e.getMessage());
    }

    @Test
    void shouldNeverPrintTheSecretOfTheSettings() {
        assertFalse(
                settings().toString().contains("0123456789abcdef"), settings().toString());
    }

    private static TransportSettings settings() {
        return new TransportSettings(
                "127.0.0.1",
                "",
                0,
                Duration.ofMillis(200),
                Duration.ofSeconds(5),
                1 << 20,
                "0123456789abcdef0123456789abcdef",
                true,
                "/dev/shm",
                1 << 20);
    }

    @Test
    void shouldRefuseAnUnknownTransportWhenTheRuntimeStarts() {
        final CoreConfig config = CoreConfig.builder().transport("udp").build();
        final TroupeException e = assertThrows(TroupeException.class, () -> TroupeRuntime.start(config));
        assertTrue(
                e.getMessage()
                        .contains(
                                "troupe.core.transport=udp names no transport of this JVM; it has [tcp, auto, shm, local]"),
                e.getMessage());
    }

    @Test
    void shouldRefuseANameThatCannotBeATransport() {
        final IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> CoreConfig.builder().transport("tcp;rm"));
        assertTrue(e.getMessage().contains("not 'tcp;rm'"), e.getMessage());
    }

    @Test
    void shouldSayThatALocalRuntimeReachesNoOtherJvm() {
        final TroupeRuntime runtime =
                TroupeRuntime.start(CoreConfig.builder().transport("local").build());
        try {
            final TroupeException e = assertThrows(TroupeException.class, runtime::listen);
            assertTrue(e.getMessage().contains("reaches no other JVM"), e.getMessage());
        } finally {
            runtime.shutdown();
        }
    }

    /** A transport whose module is on the path but cannot work here (its native library, a dependency, missing). */
    public static final class BrokenProvider implements TransportProvider {
        public BrokenProvider() {
            throw new UnsatisfiedLinkError("no troupe-shm in java.library.path");
        }

        @Override
        public String name() {
            return "shm";
        }

        @Override
        public Transport create(final String runtimeId, final TransportSettings settings) {
            throw new UnsupportedOperationException();
        }
    }

    /**
     * Another transport on the path that fails to load must not keep the runtime from starting with the one it
     * names (here tcp): the runtime lists every provider at start, and the first that fails throws an Error.
     */
    @Test
    void shouldStartWithTcpWhenAnotherTransportOnThePathCannotBeLoaded(@org.junit.jupiter.api.io.TempDir final Path dir)
            throws Exception {
        final Path services = dir.resolve("META-INF/services/" + TransportProvider.class.getName());
        Files.createDirectories(services.getParent());
        Files.writeString(services, BrokenProvider.class.getName() + "\n");
        final ClassLoader before = Thread.currentThread().getContextClassLoader();
        try (URLClassLoader withBroken =
                new URLClassLoader(new URL[] {dir.toUri().toURL()}, TransportsTest.class.getClassLoader())) {
            Thread.currentThread().setContextClassLoader(withBroken);
            final TroupeRuntime runtime;
            try {
                runtime = TroupeRuntime.start(
                        CoreConfig.builder().transport("tcp").build());
            } catch (Throwable e) {
                throw new AssertionError("the runtime did not start with tcp: " + e, e);
            }
            runtime.shutdown();
        } finally {
            Thread.currentThread().setContextClassLoader(before);
            Files.delete(services);
        }
    }
}
