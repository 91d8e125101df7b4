package org.troupe.core.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.troupe.core.CoreConfig;
import org.troupe.core.TroupeException;
import org.troupe.core.TroupeRuntime;
import org.troupe.core.transport.tcp.TcpTransport;

class TransportsTest {
    @Test
    void shouldFindTheTcpTransportByItsName() {
        assertEquals(java.util.List.of("tcp", "local"), Transports.names());
        try (Transport t = Transports.create("rt-test", CoreConfig.builder().transport("TCP ").build())) {
            assertInstanceOf(TcpTransport.class, t);
        }
    }

    @Test
    void shouldRefuseAnUnknownTransportWhenTheRuntimeStarts() {
        final CoreConfig config = CoreConfig.builder().transport("shm").build();
        final TroupeException e = assertThrows(TroupeException.class, () -> TroupeRuntime.start(config));
        assertTrue(e.getMessage().contains("troupe.core.transport=shm names no transport of this JVM; it has"
            + " [tcp, local]"), e.getMessage());
    }

    @Test
    void shouldRefuseANameThatCannotBeATransport() {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> CoreConfig.builder().transport("tcp;rm"));
        assertTrue(e.getMessage().contains("not 'tcp;rm'"), e.getMessage());
    }

    @Test
    void shouldSayThatALocalRuntimeReachesNoOtherJvm() {
        final TroupeRuntime runtime = TroupeRuntime.start(CoreConfig.builder().transport("local").build());
        try {
            final TroupeException e = assertThrows(TroupeException.class, runtime::listen);
            assertTrue(e.getMessage().contains("reaches no other JVM"), e.getMessage());
        } finally {
            runtime.shutdown();
        }
    }
}
