package org.troupe.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.troupe.core.spi.HostAddresses;

/** Where a runtime listens when its user (a deployment) chooses the interface before it first listens. */
class ListenOnTest {
    @RegisterExtension
    final LocalRuntime local = LocalRuntime.of(() -> CoreConfig.builder().build());

    @Test
    void aRuntimeListensWhereItIsToldInsteadOfItsDefaultAndSaysWhere() {
        final TroupeRuntime runtime = local.runtime();
        assertEquals("", runtime.bindAddress(), "not listening yet");
        final String at = runtime.listen("0.0.0.0");
        assertEquals("0.0.0.0", runtime.bindAddress());
        assertEquals(
                HostAddresses.hostAddress().getHostAddress(),
                HostAddresses.host(at),
                "bound to every interface, it announces the host's address where no connection tells, not 0.0.0.0");
        assertEquals(at, runtime.listen(), "listening is done once");
        assertEquals(at, runtime.listen("0.0.0.0"));
    }

    @Test
    void aRuntimeThatListensAlreadyRefusesAnotherInterfaceSayingWhereItListens() {
        final TroupeRuntime runtime = local.runtime();
        final String at = runtime.listen();
        assertEquals("127.0.0.1", runtime.bindAddress(), "the default");
        final IllegalStateException e = assertThrows(IllegalStateException.class, () -> runtime.listen("0.0.0.0"));
        assertTrue(e.getMessage().contains("listens already on 127.0.0.1 (" + at + ")"), e.getMessage());
    }
}
