package org.troupe.core.transport.tcp;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.List;

/**
 * A Netty channel whose socket a sending thread may also write to directly, and a waiting thread read from, without
 * a hop through the event loop (a task and a wake-up of its thread: tens of microseconds on a virtual machine whose
 * other core sleeps). Built on the JDK's socket channels, which are safe to use from any thread and never let a
 * write reach a descriptor closed meanwhile (and perhaps reused by another socket), as a raw descriptor would.
 */
final class DirectSocketChannel extends NioSocketChannel {
    /** Once the handshake is done, the link reads the socket itself: from the event loop and from spinners. */
    private volatile ReadOwnership reads;

    DirectSocketChannel() {}

    private DirectSocketChannel(final Channel parent, final SocketChannel socket) {
        super(parent, socket);
    }

    /** The JDK channel, for direct non-blocking writes and reads. */
    SocketChannel socket() {
        return javaChannel();
    }

    void readBy(final ReadOwnership reader) {
        this.reads = reader;
    }

    /** The event loop's read: Netty's own until the handshake is done, then the link's (nothing for Netty). */
    @Override
    protected int doReadBytes(final ByteBuf buffer) throws Exception {
        final ReadOwnership reader = reads;
        return reader == null ? super.doReadBytes(buffer) : reader.readFromEventLoop();
    }

    /** The listening side: accepted connections are {@link DirectSocketChannel}s too. */
    static final class Server extends NioServerSocketChannel {
        Server() {}

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
