package org.troupe.core.transport.shm;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicInteger;
import org.troupe.core.transport.Link;
import org.troupe.core.transport.LinkHandler;

/**
 * A link whose frames go through a pair of rings in memory shared with a runtime of this host, beside the TCP link
 * it was set up on: that one stays as the control link, carrying the doorbells, the heartbeats and the peer's end
 * (a peer killed, frozen or gone closes it, and this link with it, as a TCP link would be).
 */
final class ShmLink implements Link {
    private static final byte[] DOORBELL = {Upgrade.DOORBELL};

    private final Link control;
    private final LinkHandler handler;
    private final RingFile file;
    private final RingWriter writer;
    private final RingReader reader;
    /** The writer and the reader still using the file: it is unmapped when both are done. */
    private final AtomicInteger users = new AtomicInteger(2);

    private volatile String closeReason;
    /**
     * Closed by this side (a handler's failure, a peer found breaking the protocol, the runtime ending): nothing more
     * of the peer's is handed over from then on, though the ring is still read to its end. When the peer closed,
     * what it wrote before is handed over ({@link #controlClosed}).
     */
    private volatile boolean closedHere;

    /**
     * @param connecting whether this side made the file (it writes ring 0 and reads ring 1)
     */
    ShmLink(
            final Link control,
            final LinkHandler handler,
            final RingFile file,
            final boolean connecting,
            final int maxFrameBytes) {
        this.control = control;
        this.handler = handler;
        this.file = file;
        final int out = connecting ? 0 : 1;
        final int in = 1 - out;
        this.writer = new RingWriter(
                file.ring(out),
                file.readerState(out),
                file.writerState(out),
                new RingWriter.Control() {
                    @Override
                    public void ringDoorbell() {
                        doorbellToPeer();
                    }

                    @Override
                    public boolean isOpen() {
                        return ShmLink.this.isOpen();
                    }

                    @Override
                    public void close(final String reason) {
                        ShmLink.this.close(reason);
                    }

                    @Override
                    public String closeReason() {
                        return closeReason;
                    }

                    @Override
                    public void queueDrained() {
                        reader.drain();
                    }
                },
                maxFrameBytes,
                this::userDone);
        this.reader = new RingReader(
                file.ring(in),
                file.readerState(in),
                file.writerState(in),
                new RingReader.Frames() {
                    @Override
                    public void received(final byte[] frame, final int offset, final int length) {
                        if (!closedHere) {
                            handler.received(ShmLink.this, frame, offset, length);
                        }
                    }

                    @Override
                    public void received(final ByteBuffer frame) {
                        if (!closedHere) {
                            handler.received(ShmLink.this, frame);
                        }
                    }

                    @Override
                    public boolean held() {
                        return writer.readsHeld();
                    }

                    @Override
                    public void roomMade() {
                        doorbellToPeer();
                    }

                    @Override
                    public void malformed(final String what) {
                        close("shared-memory link stopped reading: " + what);
                    }
                },
                maxFrameBytes,
                this::userDone);
    }

    @Override
    public String peerRuntimeId() {
        return control.peerRuntimeId();
    }

    @Override
    public String peerAddress() {
        return control.peerAddress();
    }

    @Override
    public String localAddress() {
        return control.localAddress();
    }

    @Override
    public void send(final byte[] frame, final int offset, final int length, final boolean batch) {
        writer.write(frame, offset, length, null);
    }

    @Override
    public void send(final byte[] head, final int headLength, final ByteBuffer tail, final boolean batch) {
        writer.write(head, 0, headLength, tail);
    }

    @Override
    public boolean isOpen() {
        return closeReason == null && control.isOpen();
    }

    @Override
    public void close(final String reason) {
        if (closeReason == null) {
            closeReason = reason;
        }
        closedHere = true;
        control.close(reason);
    }

    /** A spinning waiter's read. */
    void poll() {
        reader.poll();
    }

    /** The first of this JVM's spinners started: the peer need not ring. */
    void awake() {
        reader.awake();
    }

    /** The last of this JVM's spinners stopped: the peer rings from now on. */
    void asleep() {
        reader.asleep();
    }

    /** A frame came on the control link: the peer rang, because it wrote while nobody here read, or read and made room. */
    void doorbell() {
        reader.doorbell();
        writer.roomMade();
    }

    private void doorbellToPeer() {
        try {
            control.send(DOORBELL, 0, DOORBELL.length, false);
        } catch (IllegalStateException closed) {
            // the control link is gone: its close ends this link too
        }
    }

    /**
     * The control link closed: what the peer wrote before it went is handed over, then the rings are given up
     * and the handler told.
     */
    void controlClosed(final String reason) {
        if (closeReason == null) {
            closeReason = reason;
        }
        try {
            reader.closeAfterDraining(); // isOpen is false now, but frames written before the close still count
        } finally {
            writer.close();
            handler.closed(this, reason);
        }
    }

    private void userDone() {
        if (users.decrementAndGet() == 0) {
            file.close();
        }
    }

    @Override
    public String toString() {
        return "shared-memory link to " + peerRuntimeId() + " (" + file.name() + ")";
    }
}
