package org.troupe.core.transport.tcp;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.concurrent.Promise;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.troupe.core.transport.LinkHandler;

/**
 * One side of the handshake on a new channel. The connecting side says hello with a nonce; the accepting side
 * answers with its nonce and its proof; the connecting side checks it and sends its own proof; the accepting side
 * checks that and accepts. Then the channel becomes a {@link TcpLink}.
 */
final class HandshakeHandler extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(HandshakeHandler.class);
    private static final int MAX_STRING = 255;

    private final TcpTransport transport;
    private final boolean connecting;
    private final LinkHandler handler;
    /** Completed with the link on the connecting side. */
    private final Promise<TcpLink> linked;
    private final Linker linker;
    /** Ours when connecting; the peer's, as received, when accepting. */
    private byte[] clientNonce;
    private byte[] serverNonce;
    private String peerId;
    private String peerAddress;
    private boolean refused;
    /** Accepting side: whether this connection still counts against the cap ({@link TcpTransport#handshakeEnded}). */
    private boolean counted;

    HandshakeHandler(final TcpTransport transport, final boolean connecting, final LinkHandler handler,
                     final Promise<TcpLink> linked) {
        this(transport, connecting, handler, linked, null);
    }

    /** With {@code linker} in place of {@link #becomeLink} when not null: for channels without a socket. */
    HandshakeHandler(final TcpTransport transport, final boolean connecting, final LinkHandler handler,
                     final Promise<TcpLink> linked, final Linker linker) {
        this.transport = transport;
        this.connecting = connecting;
        this.handler = handler;
        this.linked = linked;
        this.linker = linker == null ? this::becomeLink : linker;
        this.clientNonce = connecting ? Handshake.nonce() : null;
        this.counted = !connecting;
    }

    private void uncount() {
        if (counted) {
            counted = false;
            transport.handshakeEnded();
        }
    }

    /** Makes the link of a channel whose peer has proved the secret. */
    @FunctionalInterface
    interface Linker {
        TcpLink link(ChannelHandlerContext ctx, String peerId, String peerAddress);
    }

    @Override
    public void channelActive(final ChannelHandlerContext ctx) {
        if (connecting) {
            final ByteBuf hello = ctx.alloc().buffer();
            hello.writeInt(0).writeByte(Handshake.HELLO).writeByte(Handshake.VERSION).writeBytes(clientNonce);
            writeString(hello, transport.runtimeId());
            writeString(hello, transport.address());
            send(ctx, hello);
        }
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(final ChannelHandlerContext ctx, final Object msg) {
        final ByteBuf frame = (ByteBuf) msg;
        try {
            if (connecting) {
                clientStep(ctx, frame);
            } else {
                serverStep(ctx, frame);
            }
        } catch (HandshakeFailure | IndexOutOfBoundsException e) {
            refuse(ctx, e instanceof HandshakeFailure ? e.getMessage() : "malformed handshake frame");
        } finally {
            frame.release();
        }
    }

    private void serverStep(final ChannelHandlerContext ctx, final ByteBuf frame) {
        final byte kind = frame.readByte();
        if (serverNonce == null) {
            if (kind != Handshake.HELLO || frame.readByte() != Handshake.VERSION) {
                throw new HandshakeFailure("not a Troupe peer of this version");
            }
            final byte[] nonce = new byte[Handshake.NONCE_BYTES];
            frame.readBytes(nonce);
            peerId = readString(frame);
            peerAddress = readString(frame);
            serverNonce = Handshake.nonce();
            final ByteBuf challenge = ctx.alloc().buffer();
            challenge.writeInt(0).writeByte(Handshake.CHALLENGE).writeBytes(serverNonce);
            writeString(challenge, transport.runtimeId());
            writeString(challenge, transport.address());
            challenge.writeBytes(transport.handshake().proof('S', nonce, serverNonce, peerId, transport.runtimeId()));
            clientNonce = nonce;
            send(ctx, challenge);
            return;
        }
        if (kind != Handshake.PROOF) {
            throw new HandshakeFailure("expected a proof");
        }
        final byte[] proof = new byte[Handshake.MAC_BYTES];
        frame.readBytes(proof);
        final byte[] expected = transport.handshake().proof('C', clientNonce, serverNonce, peerId,
            transport.runtimeId());
        if (!transport.handshake().verify(expected, proof)) {
            throw new HandshakeFailure("wrong deployment secret");
        }
        uncount();
        final ByteBuf accepted = ctx.alloc().buffer(5);
        accepted.writeInt(0).writeByte(Handshake.ACCEPTED);
        send(ctx, accepted);
        final TcpLink link = linker.link(ctx, peerId, peerAddress);
        handler.opened(link);
    }

    private void clientStep(final ChannelHandlerContext ctx, final ByteBuf frame) {
        final byte kind = frame.readByte();
        if (peerId == null) {
            if (kind != Handshake.CHALLENGE) {
                throw new HandshakeFailure("the peer did not answer with a challenge");
            }
            serverNonce = new byte[Handshake.NONCE_BYTES];
            frame.readBytes(serverNonce);
            final String id = readString(frame);
            final String address = readString(frame);
            final byte[] proof = new byte[Handshake.MAC_BYTES];
            frame.readBytes(proof);
            final byte[] expected = transport.handshake().proof('S', clientNonce, serverNonce, transport.runtimeId(), id);
            if (!transport.handshake().verify(expected, proof)) {
                throw new HandshakeFailure("the peer does not know the deployment secret");
            }
            peerId = id;
            peerAddress = address;
            final ByteBuf reply = ctx.alloc().buffer();
            reply.writeInt(0).writeByte(Handshake.PROOF)
                .writeBytes(transport.handshake().proof('C', clientNonce, serverNonce, transport.runtimeId(), id));
            send(ctx, reply);
            return;
        }
        if (kind != Handshake.ACCEPTED) {
            throw new HandshakeFailure("the peer did not accept");
        }
        linked.trySuccess(linker.link(ctx, peerId, peerAddress));
    }

    /**
     * Hands the channel to the link: the link takes this handler's place, then the handshake's decoder leaves,
     * passing on as bytes whatever followed the last handshake frame; from then on the link reads the socket.
     */
    private TcpLink becomeLink(final ChannelHandlerContext ctx, final String id, final String address) {
        final DirectSocketChannel channel = (DirectSocketChannel) ctx.channel();
        final TcpLink link = new TcpLink(channel, id, address, handler, transport);
        ctx.pipeline().remove(TcpTransport.HANDSHAKE_TIMEOUT);
        ctx.pipeline().replace(this, "link", link);
        ctx.pipeline().remove(TcpTransport.FRAMES);
        channel.readBy(link);
        transport.added(link);
        link.start();
        return link;
    }

    private void refuse(final ChannelHandlerContext ctx, final String reason) {
        if (refused) {
            return;
        }
        refused = true;
        final String who = peerId == null ? String.valueOf(ctx.channel().remoteAddress()) : peerId;
        if (connecting) {
            linked.tryFailure(new HandshakeFailure("handshake with " + who + " failed: " + reason));
        } else {
            LOG.warn("Refused a connection from {}: {}", who, reason);
        }
        ctx.close();
    }

    @Override
    public void exceptionCaught(final ChannelHandlerContext ctx, final Throwable cause) {
        refuse(ctx, String.valueOf(cause));
    }

    @Override
    public void channelInactive(final ChannelHandlerContext ctx) {
        uncount();
        if (connecting) {
            linked.tryFailure(new HandshakeFailure("the peer closed the connection during the handshake"
                + " (a different deployment secret, or not a Troupe runtime)"));
        }
    }

    private static void send(final ChannelHandlerContext ctx, final ByteBuf frame) {
        frame.setInt(0, frame.readableBytes() - 4);
        ctx.writeAndFlush(frame);
    }

    private static void writeString(final ByteBuf buf, final String s) {
        final byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        buf.writeShort(bytes.length).writeBytes(bytes);
    }

    private static String readString(final ByteBuf buf) {
        final int length = buf.readUnsignedShort();
        if (length > MAX_STRING) {
            throw new HandshakeFailure("oversized handshake field");
        }
        final byte[] bytes = new byte[length];
        buf.readBytes(bytes);
        for (final byte b : bytes) {
            if (b < 0x21 || b > 0x7e) { // ids and addresses are printable ASCII: nothing else reaches a log line
                throw new HandshakeFailure("malformed handshake field");
            }
        }
        return new String(bytes, StandardCharsets.US_ASCII);
    }

    static final class HandshakeFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        HandshakeFailure(final String message) {
            super(message);
        }
    }
}
