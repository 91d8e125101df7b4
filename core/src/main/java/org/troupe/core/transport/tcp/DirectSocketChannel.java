package org.troupe.core.transport.tcp;

import io.netty.channel.Channel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.List;

/**
 * A Netty channel whose socket a sending thread may also write to directly, without a hop through the event loop
 * (a task and a wake-up of its thread: tens of microseconds on a virtual machine whose other core sleeps). Built
 * on the JDK's socket channels, which are safe to write to from any thread and never let a write reach a
 * descriptor closed meanwhile (and perhaps reused by another socket), as a raw descriptor would.
 */
final class DirectSocketChannel extends NioSocketChannel {
    DirectSocketChannel() {
    }

    private DirectSocketChannel(final Channel parent, final SocketChannel socket) {
        super(parent, socket);
    }

    /** The JDK channel, for direct non-blocking writes. */
    SocketChannel socket() {
        return javaChannel();
    }

    /** The listening side: accepted connections are {@link DirectSocketChannel}s too. */
    static final class Server extends NioServerSocketChannel {
        Server() {
        }

        @Override
        protected int doReadMessages(final List<Object> accepted) throws Exception {
            final SocketChannel socket = javaChannel().accept();
            if (socket == null) {
                return 0;
            }
            try {
                accepted.add(new DirectSocketChannel(this, socket));
                return 1;
            } catch (RuntimeException e) {
                socket.close();
                throw e;
            }
        }
    }
}
