package org.troupe.core;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.troupe.core.exceptions.TroupeException;

class AwaitNodeTest {
    @RegisterExtension
    final LocalRuntime local = LocalRuntime.of(() -> CoreConfig.builder().build());

    /**
     * A node JVM that cannot prove the secret never registers: the wait for it says which connection was turned
     * away and what to check, instead of only that nothing came. A probe that does not speak the handshake (a port
     * scanner, a health check) is not named.
     */
    @Test
    void aWaitThatTimesOutNamesTheConnectionRefusedMeanwhile() throws Exception {
        final String address = local.runtime().listen();
        final int port = Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
        connectAndSend(port, "GET / HTTP/1.0\r\n\r\n".getBytes(StandardCharsets.US_ASCII)); // a probe, not a peer
        final String quiet = assertThrows(
                        TroupeException.class, () -> local.runtime().awaitNode("n1", Duration.ofMillis(100)))
                .getMessage();
        assertFalse(quiet.contains("refused"), quiet);
        connectAndSend(port, new byte[] {0, 0, 0, 1, 0x7f}); // a handshake frame of no known kind
        final String message = assertThrows(
                        TroupeException.class, () -> local.runtime().awaitNode("n1", Duration.ofMillis(300)))
                .getMessage();
        assertTrue(
                message.contains("No node called n1")
                        && message.contains("refused")
                        && message.contains("not a Troupe peer")
                        && message.contains("troupe.core.secret"),
                message);
    }

    private static void connectAndSend(final int port, final byte[] bytes) throws Exception {
        try (Socket s = new Socket("127.0.0.1", port)) {
            final OutputStream out = s.getOutputStream();
            out.write(bytes);
            out.flush();
            assertTrue(s.getInputStream().read() < 0, "the runtime closes the connection");
        }
    }
}
