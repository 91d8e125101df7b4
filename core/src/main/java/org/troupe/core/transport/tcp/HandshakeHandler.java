package org.troupe.core.transport.tcp;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.concurrent.Promise;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.troupe.core.transport.LinkHandler;

/**
 * One side of the handshake on a new channel. The connecting side (the client) says hello with a nonce and its
 * settings; the accepting side (the server) answers with its nonce and settings; the client proves the secret first,
 * bound to the runtime it expects there; only then does the server prove it, naming itself; and the client, having
 * checked that proof, names itself with a third proof. Neither side gives a stranger anything computed from the
 * secret, nor its runtime id (which bears its pid), before the other has proved the secret. Each side names itself
 * with the address it announces on this connection ({@link TcpTransport#announcedOn}), which its proof covers. Then
 * the channel becomes a {@link TcpLink}, whose frames carry tags under keys derived from the handshake.
 */
final class HandshakeHandler extends ChannelInboundHandlerAdapter {
    private static final int MAX_STRING = 255;

    private final TcpTransport transport;
    private final boolean connecting;
    /**
     * Why a handshake with this runtime itself is refused: a stranger holding an address this runtime dials plays
     * its handshake back to it, to make it talk to itself.
     */
    private static final String SELF = "the peer is this runtime itself (its own handshake played back)";

    private final LinkHandler handler;
    /** Completed with the link on the connecting side. */
    private final Promise<TcpLink> linked;

    private final Linker linker;
    /** Connecting side: the runtime it dials, or empty if any runtime that knows the secret will do. */
    private final String expectedId;

    /** The flags this side announces: {@link Handshake#AUTHENTICATED_FRAMES}, {@link Handshake#SHARED_MEMORY}. */
    private final byte flags;
    /** The flags the peer announced, once it has. */
    private byte peerFlags;
    /** Ours when connecting; the peer's, as received, when accepting. */
    private byte[] clientNonce;

    private byte[] serverNonce;
    private boolean proved;
    private String peerId;
    private boolean refused;
    /** Accepting side: whether this connection still counts against the cap ({@link TcpTransport#handshakeEnded}). */
    private boolean counted;

    HandshakeHandler(
            final TcpTransport transport,
            final boolean connecting,
            final String expectedId,
            final LinkHandler handler,
            final Promise<TcpLink> linked) {
        this(transport, connecting, expectedId, handler, linked, null);
    }

    /** With {@code linker} in place of {@link #becomeLink} when not null: for channels without a socket. */
    HandshakeHandler(
            final TcpTransport transport,
            final boolean connecting,
            final String expectedId,
            final LinkHandler handler,
            final Promise<TcpLink> linked,
            final Linker linker) {
        this.transport = transport;
        this.connecting = connecting;
        this.expectedId = expectedId;
        this.handler = handler;
        this.linked = linked;
        this.linker = linker == null ? this::becomeLink : linker;
        this.flags = (byte) ((transport.authenticatesFrames() ? Handshake.AUTHENTICATED_FRAMES : 0)
                | (transport.offersSharedMemory() ? Handshake.SHARED_MEMORY : 0));
        this.clientNonce = connecting ? Handshake.nonce() : null;
        this.counted = !connecting;
    }

    private void uncount(final Channel channel) {
        if (counted) {
            counted = false;
            transport.handshakeEnded(channel);
        }
    }

    /**
     * Makes the link of a channel whose peer has proved the secret; {@code sending} and {@code receiving} tag and
     * check its frames, both null when the runtimes agreed to send them bare.; {@code sharedMemory}: both sides offered to
     * carry its frames through shared memory ({@link TcpTransport#sharesMemory}).
     */
    @FunctionalInterface
    interface Linker {
        TcpLink link(
                ChannelHandlerContext ctx,
                String peerId,
                String peerAddress,
                FrameMac sending,
                FrameMac receiving,
                boolean sharedMemory);
    }

    @Override
    public void channelActive(final ChannelHandlerContext ctx) {
        if (connecting) {
            final ByteBuf hello = ctx.alloc().buffer();
            hello.writeInt(0)
                    .writeByte(Handshake.HELLO)
                    .writeByte(Handshake.VERSION)
                    .writeByte(flags)
                    .writeBytes(clientNonce);
            send(ctx, hello);
        }
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(final ChannelHandlerContext ctx, final Object msg) {
        final ByteBuf frame = (ByteBuf) msg;
        try {
            if (refused) {
                return;
            }
            if (connecting) {
                clientStep(ctx, frame);
            } else {
                serverStep(ctx, frame);
            }
        } catch (HandshakeFailure | IndexOutOfBoundsException e) {
            refuse(
                    ctx,
                    e instanceof HandshakeFailure ? e.getMessage() : "malformed handshake frame",
                    e instanceof HandshakeFailure);
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
            peerFlags = frame.readByte();
            clientNonce = new byte[Handshake.NONCE_BYTES];
            frame.readBytes(clientNonce);
            serverNonce = Handshake.nonce();
            final ByteBuf challenge = ctx.alloc().buffer();
            challenge
                    .writeInt(0)
                    .writeByte(Handshake.CHALLENGE)
                    .writeByte(flags)
                    .writeBytes(serverNonce);
            send(ctx, challenge); // also when the settings differ: the client reports why, from our flags
            if (authenticates(peerFlags) != authenticates(flags)) {
                throw new HandshakeFailure(settingsDiffer());
            }
            return;
        }
        if (!proved) {
            if (kind != Handshake.PROOF) {
                throw new HandshakeFailure("expected a proof");
            }
            final byte[] proof = new byte[Handshake.MAC_BYTES];
            frame.readBytes(proof);
            final Handshake h = transport.handshake();
            // The client bound its proof to the runtime it expects here: us, or anyone (none named).
            if (!h.verify(proof('C', transport.runtimeId()), proof) && !h.verify(proof('C', ""), proof)) {
                throw new HandshakeFailure("wrong deployment secret, or the dialler expected another runtime here");
            }
            proved = true;
            final String ours = transport.announcedOn(ctx.channel());
            final ByteBuf accepted = ctx.alloc().buffer();
            accepted.writeInt(0).writeByte(Handshake.ACCEPTED);
            writeString(accepted, transport.runtimeId());
            writeString(accepted, ours);
            accepted.writeBytes(proof('S', transport.runtimeId(), ours));
            send(ctx, accepted);
            return;
        }
        if (kind != Handshake.IDENTIFIED) {
            throw new HandshakeFailure("expected the client's identity");
        }
        final String id = readString(frame);
        final String address = readString(frame);
        final byte[] proof = new byte[Handshake.MAC_BYTES];
        frame.readBytes(proof);
        final Handshake h = transport.handshake();
        if (!h.verify(proof('I', transport.runtimeId(), id, address), proof)) {
            throw new HandshakeFailure("the client's identity does not carry its proof");
        }
        if (id.equals(transport.runtimeId())) {
            throw new HandshakeFailure(SELF);
        }
        peerId = id;
        uncount(ctx.channel());
        final TcpLink link = makeLink(ctx, id, address, transport.runtimeId());
        handler.opened(link);
    }

    private void clientStep(final ChannelHandlerContext ctx, final ByteBuf frame) {
        final byte kind = frame.readByte();
        if (kind == Handshake.BUSY) {
            throw new HandshakeFailure("the runtime there dropped this connection for a newer one: more than "
                    + TcpTransport.MAX_UNAUTHENTICATED + " were proving the secret at once (many runtimes dialling it"
                    + " together, or a stranger holding connections open); try again");
        }
        final Handshake h = transport.handshake();
        if (serverNonce == null) {
            if (kind != Handshake.CHALLENGE) {
                throw new HandshakeFailure("the peer did not answer with a challenge");
            }
            peerFlags = frame.readByte();
            if (authenticates(peerFlags) != authenticates(flags)) {
                throw new HandshakeFailure(settingsDiffer());
            }
            serverNonce = new byte[Handshake.NONCE_BYTES];
            frame.readBytes(serverNonce);
            if (Arrays.equals(serverNonce, clientNonce)) { // our own hello, played back
                throw new HandshakeFailure(SELF);
            }
            final ByteBuf proof = ctx.alloc().buffer();
            proof.writeInt(0).writeByte(Handshake.PROOF).writeBytes(proof('C', expectedId));
            send(ctx, proof);
            return;
        }
        if (kind != Handshake.ACCEPTED) {
            throw new HandshakeFailure("the peer did not accept");
        }
        final String id = readString(frame);
        final String address = readString(frame);
        final byte[] proof = new byte[Handshake.MAC_BYTES];
        frame.readBytes(proof);
        if (!h.verify(proof('S', id, address), proof)) {
            throw new HandshakeFailure("the peer does not know the deployment secret");
        }
        if (!expectedId.isEmpty() && !expectedId.equals(id)) { // it accepted a proof bound to another id
            throw new HandshakeFailure("the peer is " + id + ", not " + expectedId);
        }
        if (id.equals(transport.runtimeId())) {
            throw new HandshakeFailure(SELF);
        }
        peerId = id;
        final String ours = transport.announcedOn(ctx.channel());
        final ByteBuf identity = ctx.alloc().buffer();
        identity.writeInt(0).writeByte(Handshake.IDENTIFIED);
        writeString(identity, transport.runtimeId());
        writeString(identity, ours);
        identity.writeBytes(proof('I', id, transport.runtimeId(), ours));
        send(ctx, identity);
        linked.trySuccess(makeLink(ctx, id, address, id));
    }

    /** This step's proof, over both sides' nonces and flags; the client's flags first. */
    private byte[] proof(final char role, final String... fields) {
        final byte clientFlags = connecting ? flags : peerFlags;
        final byte serverFlags = connecting ? peerFlags : flags;
        return transport.handshake().proof(role, clientNonce, serverNonce, clientFlags, serverFlags, fields);
    }

    private static boolean authenticates(final byte flags) {
        return (flags & Handshake.AUTHENTICATED_FRAMES) != 0;
    }

    private String settingsDiffer() {
        return "frame authentication is " + onOff(peerFlags) + " at the peer and " + onOff(flags)
                + " here: set troupe.core.authenticateFrames alike on every runtime of the deployment";
    }

    private static String onOff(final byte flags) {
        return authenticates(flags) ? "on" : "off";
    }

    /** The link, with its frame keys when frames are tagged; {@code serverId} is the accepting side's id. */
    private TcpLink makeLink(
            final ChannelHandlerContext ctx, final String id, final String address, final String serverId) {
        final boolean sharedMemory = (flags & peerFlags & Handshake.SHARED_MEMORY) != 0;
        if (!authenticates(flags)) {
            return linker.link(ctx, id, address, null, null, sharedMemory);
        }
        final String clientId = connecting ? transport.runtimeId() : id;
        final byte[] keys = transport
                .handshake()
                .frameKeys(clientNonce, serverNonce, Handshake.AUTHENTICATED_FRAMES, clientId, serverId);
        final FrameMac toServer = new FrameMac(keys, 0);
        final FrameMac toClient = new FrameMac(keys, FrameMac.KEY_BYTES);
        Arrays.fill(keys, (byte) 0);
        return connecting
                ? linker.link(ctx, id, address, toServer, toClient, sharedMemory)
                : linker.link(ctx, id, address, toClient, toServer, sharedMemory);
    }

    /**
     * Hands the channel to the link: the link takes this handler's place, then the handshake's decoder leaves,
     * passing on as bytes whatever followed the last handshake frame; from then on the link reads the socket.
     */
    private TcpLink becomeLink(
            final ChannelHandlerContext ctx,
            final String id,
            final String address,
            final FrameMac sending,
            final FrameMac receiving,
            final boolean sharedMemory) {
        final DirectSocketChannel channel = (DirectSocketChannel) ctx.channel();
        final TcpLink link = new TcpLink(channel, id, address, handler, transport, sending, receiving, sharedMemory);
        ctx.pipeline().remove(TcpTransport.HANDSHAKE_TIMEOUT);
        ctx.pipeline().replace(this, "link", link);
        ctx.pipeline().remove(TcpTransport.FRAMES);
        channel.readBy(link.reads());
        transport.added(link);
        link.start();
        return link;
    }

    /**
     * Ends the handshake. {@code peerFailed}: the peer spoke the handshake and failed it (another secret, version or
     * setting), as a misconfigured node JVM does; not a probe, a reset or a timeout.
     */
    private void refuse(final ChannelHandlerContext ctx, final String reason, final boolean peerFailed) {
        if (refused) {
            return;
        }
        refused = true;
        final String who = peerId == null ? String.valueOf(ctx.channel().remoteAddress()) : peerId;
        if (connecting) {
            linked.tryFailure(new HandshakeFailure("handshake with " + who + " failed: " + reason));
        } else {
            transport.refused(who, reason, peerFailed);
        }
        ctx.close();
    }

    @Override
    public void exceptionCaught(final ChannelHandlerContext ctx, final Throwable cause) {
        refuse(ctx, String.valueOf(cause), false);
    }

    @Override
    public void channelInactive(final ChannelHandlerContext ctx) {
        uncount(ctx.channel());
        if (connecting) {
            linked.tryFailure(
                    new HandshakeFailure(
                            "the peer closed the connection during the handshake"
                                    + " (a different deployment secret, not the runtime expected at that address, or not a Troupe runtime)"));
        }
    }

    private static void send(final ChannelHandlerContext ctx, final ByteBuf frame) {
        frame.setInt(FrameDescriptor.LENGTH_OFFSET, frame.readableBytes() - FrameDescriptor.LENGTH_BYTES);
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
