package org.troupe.core.transport.shm;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.troupe.core.spi.Progress;
import org.troupe.core.transport.Link;
import org.troupe.core.transport.LinkHandler;
import org.troupe.core.transport.Transport;
import org.troupe.core.transport.TransportSettings;
import org.troupe.core.transport.tcp.TcpTransport;

/**
 * Links to runtimes of this host through shared memory, set up over TCP: every link starts as a TCP link with its
 * handshake; when both sides offered shared memory in it, the connecting side makes a ring file and offers it, and
 * the accepting side maps it if it runs on the same host as the same user ({@link SameHost}) and can open it. The
 * link's frames then go through the rings ({@link ShmLink}); otherwise it stays a TCP link. In {@link Mode#AUTO}
 * that is all; in {@link Mode#SHM} a link that cannot share memory is refused.
 *
 * <p>Readers: a thread spinning in a wait reads the rings ({@link Progress}); while none spins, a writer rings the
 * reader's doorbell over the TCP link and its event loop reads them ({@link ReaderState}).
 */
public final class ShmTransport implements Transport {
    private static final Logger LOG = LoggerFactory.getLogger(ShmTransport.class);

    /** Whether this JVM has warned that a link got no ring: said once, later ones at DEBUG. */
    private static final AtomicBoolean NO_RING_SAID = new AtomicBoolean();

    /** The warning of the first link that gets no ring: what it means, and the fixes. */
    static String noRingMessage(final String peer, final String cause) {
        return "No shared-memory ring for the link to " + peer + ": " + cause + ". The links that cannot have one"
                + " stay on TCP (said once; the others at DEBUG). To use shared memory, give each link less"
                + " (troupe.core.shmRingBytes, twice it per link) or the directory more room (a larger tmpfs; in a"
                + " container, --shm-size); troupe.core.transport=tcp stops trying";
    }

    /** How a link that cannot share memory is treated. */
    public enum Mode {
        /** It stays on TCP ({@code troupe.core.transport=auto}). */
        AUTO,
        /** It is refused ({@code troupe.core.transport=shm}). */
        SHM
    }

    private final Mode mode;
    private final TcpTransport tcp;
    private final int capacity;
    private final int maxFrameBytes;
    private final String host;
    /** This user's ring directory, or null (with {@link #noDirectory} saying why) if there is none to use. */
    private final Path directory;

    private final String noDirectory;
    /**
     * The links being upgraded ({@link Pending}), upgraded ({@link ShmLink}) or left on TCP after an offer
     * ({@link #PLAIN}), by their TCP link; a TCP link absent here offered no shared memory.
     */
    private final Map<Link, Object> upgrades = new ConcurrentHashMap<>();

    private static final Object PLAIN = new Object();

    private final CopyOnWriteArrayList<ShmLink> links = new CopyOnWriteArrayList<>();
    /** This JVM's spinning waits, as {@link Progress} reports them: the rings' readers are awake while any runs. */
    private final AtomicInteger spinners = new AtomicInteger();

    private final Progress.Poller poller = new Progress.Poller() {
        @Override
        public void poll() {
            for (final ShmLink l : links) {
                l.poll();
            }
        }

        @Override
        public void watchAgain() {
            // the event loops always watch the control links; the doorbell protocol needs no help
        }

        @Override
        public void spinStarted() {
            if (spinners.getAndIncrement() == 0) {
                for (final ShmLink l : links) {
                    l.awake();
                }
            }
        }

        @Override
        public void spinStopped() {
            // a waiter may have started before this transport registered: never below zero
            final int before = spinners.getAndUpdate(n -> Math.max(0, n - 1));
            if (before == 1) {
                for (final ShmLink l : links) {
                    l.asleep();
                }
            }
        }
    };

    /** The state of a TCP link whose upgrade is under way. */
    private static final class Pending {
        /** Whether this side connected (it offers, and waits for the answer). */
        final boolean connecting;
        /** Connecting side: the file offered, or null if none could be made. */
        final RingFile file;

        final CompletableFuture<Link> upgraded = new CompletableFuture<>();
        final LinkHandler handler;
        /**
         * Who owns the file from now on: the answer (which maps it into a link or gives it up) or the connect that
         * stopped waiting (which gives it up); taken once, so it is never unmapped under a link.
         */
        final AtomicBoolean taken = new AtomicBoolean();

        Pending(final boolean connecting, final RingFile file, final LinkHandler handler) {
            this.connecting = connecting;
            this.file = file;
            this.handler = handler;
        }

        /** Unlinks and unmaps the offered file, if any, once its owner. */
        void giveUpFile() {
            if (file != null) {
                file.unlink();
                file.close();
            }
        }
    }

    public ShmTransport(final String runtimeId, final TransportSettings settings, final Mode mode) {
        this.mode = mode;
        this.capacity = RingFileLayout.checkCapacity(settings.shmRingBytes());
        this.maxFrameBytes = settings.maxMessageBytes();
        this.host = SameHost.identity();
        Path dir = null;
        String why = null;
        try {
            if (host.isEmpty()) {
                throw new IOException("this system does not tell which host and user a process runs as (/proc)");
            }
            final String unusable = RingFile.unusable();
            if (unusable != null) {
                throw new IOException(unusable);
            }
            dir = SameHost.ringDirectory(Path.of(settings.shmDirectory()));
            final int swept = RingFile.sweep(dir);
            if (swept > 0) {
                LOG.info("Removed {} shared-memory ring files of runtimes no longer running from {}", swept, dir);
            }
        } catch (IOException | RuntimeException e) {
            why = "no shared memory in " + settings.shmDirectory() + ": " + e.getMessage()
                    + " (troupe.core.shmDirectory names a tmpfs directory this user may write)";
            if (mode == Mode.SHM) {
                // a setting this host cannot honour: launchers report it as the bad setting it is, in one line
                throw new IllegalArgumentException(
                        "troupe.core.transport=shm, but there is " + why
                                + ": set troupe.core.shmDirectory to such a directory (/dev/shm by default), or"
                                + " troupe.core.transport=auto to use TCP where shared memory cannot be had",
                        e);
            }
            LOG.info("Links to runtimes of this host stay on TCP: {}", why);
        }
        this.directory = dir;
        this.noDirectory = why;
        this.tcp = TcpTransport.of(runtimeId, settings, dir != null);
        Progress.register(poller);
    }

    @Override
    public String listen(final LinkHandler handler) {
        return tcp.listen(new Upgrading(handler, true));
    }

    @Override
    public String listen(final LinkHandler handler, final String bindHost) {
        return tcp.listen(new Upgrading(handler, true), bindHost);
    }

    @Override
    public Link connect(
            final String address, final String expectedRuntimeId, final LinkHandler handler, final Duration timeout) {
        final long deadline = System.nanoTime() + timeout.toNanos();
        final Link link = tcp.connect(address, expectedRuntimeId, new Upgrading(handler, false), timeout);
        if (!tcp.sharesMemory(link)) {
            return plain(link, "it offers no shared memory (another transport, or none to use)");
        }
        RingFile file = null;
        String cannot = "";
        try {
            SameHost.check(directory); // it may have gone, and its name been taken, since this transport started
            file = RingFile.create(directory, capacity);
        } catch (IOException e) {
            cannot = e.getMessage();
            // Every link of a job meets the same full directory: the first says it all, the others are noise.
            if (NO_RING_SAID.compareAndSet(false, true)) {
                LOG.warn(noRingMessage(link.peerRuntimeId(), cannot));
            } else {
                LOG.debug("No shared-memory ring for the link to {}: {}", link.peerRuntimeId(), cannot);
            }
        }
        final Pending pending = new Pending(true, file, handler);
        upgrades.put(link, pending);
        final byte[] offer = new Upgrade.Offer(host, file == null ? "" : file.name(), capacity).encode();
        try {
            if (!link.isOpen()) { // closed before its state was there to hear it
                throw new IllegalStateException("the link closed as it opened");
            }
            link.send(offer, 0, offer.length, false);
            return pending.upgraded.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException | ExecutionException | RuntimeException e) {
            abandon(link, pending, "no answer to the shared-memory offer");
            final Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
            throw new IllegalStateException("Cannot connect to " + address + ": " + cause.getMessage(), cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            abandon(link, pending, "interrupted while connecting");
            throw new IllegalStateException("Interrupted while connecting to " + address, e);
        }
    }

    /**
     * A connect that stops waiting: closes the link; gives the file up unless the answer took it (then the link
     * made of it is closed, which unmaps the file once nobody uses it).
     */
    private void abandon(final Link link, final Pending pending, final String reason) {
        link.close(reason);
        upgrades.remove(link, pending);
        if (pending.taken.compareAndSet(false, true)) {
            pending.giveUpFile();
        }
    }

    /** A link that stays on TCP: fine in {@link Mode#AUTO}; refused, saying why, in {@link Mode#SHM}. */
    private Link plain(final Link link, final String why) {
        if (mode == Mode.SHM) {
            final String reason = refusal(link, why);
            link.close(reason);
            throw new IllegalStateException(reason);
        }
        LOG.debug("The link to {} stays on TCP: {}", link.peerRuntimeId(), why);
        return link;
    }

    private static String refusal(final Link link, final String why) {
        return "troupe.core.transport=shm: the runtime " + link.peerRuntimeId() + " at " + link.peerAddress()
                + " cannot share memory with this one (" + why + "): shm reaches runtimes of this host and user only;"
                + " set troupe.core.transport=auto to use TCP for the others";
    }

    @Override
    public String lastRefusal() {
        return tcp.lastRefusal();
    }

    @Override
    public void close() {
        Progress.unregister(poller);
        // Closed here before the TCP transport ends their control links, which a busy event loop may do late.
        links.forEach(l -> l.close("this runtime is closing"));
        tcp.close(); // closes the control links, which end the shared-memory ones
    }

    /** For tests: why this transport makes no ring files, or null if it does. */
    String noSharedMemory() {
        return noDirectory;
    }

    /** For tests: the links that share memory now. */
    int sharedLinks() {
        return links.size();
    }

    /** What the TCP links report, turned into what the handler of this transport's links is told. */
    private final class Upgrading implements LinkHandler {
        private final LinkHandler handler;
        /** Whether its links are accepted ones, whose first frame may come before they are reported opened. */
        private final boolean accepting;

        Upgrading(final LinkHandler handler, final boolean accepting) {
            this.handler = handler;
            this.accepting = accepting;
        }

        @Override
        public void opened(final Link link) {
            if (tcp.sharesMemory(link)) {
                // the handler hears of it once the offer is answered (which may have happened: see received)
                upgrades.putIfAbsent(link, new Pending(false, null, handler));
            } else if (mode == Mode.SHM) {
                final String reason = refusal(link, "it offers no shared memory");
                LOG.warn("Refused a link: {}", reason);
                link.close(reason);
            } else {
                handler.opened(link);
            }
        }

        @Override
        public void received(final Link link, final byte[] frame, final int offset, final int length) {
            Object state = upgrades.get(link);
            if (state == null && accepting && tcp.sharesMemory(link)) {
                // the offer came in the same read as the handshake's end, before the link was reported opened
                state = upgrades.computeIfAbsent(link, l -> new Pending(false, null, handler));
            }
            if (state == null || state == PLAIN) {
                handler.received(link, frame, offset, length);
            } else if (state instanceof ShmLink shm) {
                shm.doorbell();
            } else {
                upgrade(link, (Pending) state, frame, offset, length);
            }
        }

        @Override
        public void closed(final Link link, final String reason) {
            final Object state = upgrades.remove(link);
            if (state == null || state == PLAIN) {
                handler.closed(link, reason);
            } else if (state instanceof ShmLink shm) {
                links.remove(shm);
                shm.controlClosed(reason);
            } else {
                final Pending p = (Pending) state;
                p.upgraded.completeExceptionally(new IllegalStateException("the link closed: " + reason));
            }
        }
    }

    /** The first frame of a link both sides offered to share memory on: the offer, or the answer to ours. */
    private void upgrade(
            final Link link, final Pending pending, final byte[] frame, final int offset, final int length) {
        final Upgrade message;
        try {
            message = Upgrade.decode(frame, offset, length);
        } catch (IllegalArgumentException e) {
            link.close(e.getMessage());
            return;
        }
        switch (message) {
            case Upgrade.Offer offer when !pending.connecting -> accept(link, pending.handler, offer);
            case Upgrade.Answer answer when pending.connecting -> answered(link, pending, answer);
            default -> link.close("an unexpected shared-memory upgrade frame: " + message);
        }
    }

    /** Accepting side: maps the offered file if it can, answers, and only then tells the handler of the link. */
    private void accept(final Link link, final LinkHandler handler, final Upgrade.Offer offer) {
        String refused = null;
        RingFile file = null;
        if (directory == null) {
            refused = noDirectory;
        } else if (!offer.host().equals(host)) {
            refused = "it runs on another host, as another user, or in another network namespace";
        } else if (offer.file().isEmpty()) {
            refused = "it could not make a ring file";
        } else if (offer.capacity() != capacity) {
            refused = "its rings have " + offer.capacity() + " bytes, ours " + capacity
                    + " (set troupe.core.shmRingBytes alike)";
        } else {
            try {
                SameHost.check(directory); // as at the offer's end: the name may be another's by now
                file = RingFile.open(directory, offer.file(), capacity);
            } catch (IOException | RuntimeException e) {
                refused = "its ring file cannot be opened here: " + e.getMessage();
            }
        }
        final Upgrade.Answer answer = new Upgrade.Answer(file != null, refused == null ? "" : refused);
        final byte[] bytes = answer.encode();
        try {
            link.send(bytes, 0, bytes.length, false);
        } catch (IllegalStateException closed) {
            if (file != null) {
                file.close();
            }
            return; // its close follows
        }
        if (file == null) {
            upgrades.computeIfPresent(link, (l, state) -> PLAIN); // not again if it closed meanwhile
            if (mode == Mode.SHM) {
                link.close(refusal(link, refused));
                return;
            }
            LOG.debug("The link from {} stays on TCP: {}", link.peerRuntimeId(), refused);
            handler.opened(link);
            return;
        }
        handler.opened(shared(link, handler, file, false));
    }

    /** Connecting side: the answer to our offer. */
    private void answered(final Link link, final Pending pending, final Upgrade.Answer answer) {
        if (!pending.taken.compareAndSet(false, true)) {
            return; // the connect gave up waiting, and the file with it
        }
        if (!answer.accepted() || pending.file == null) {
            upgrades.replace(link, pending, PLAIN);
            pending.giveUpFile();
            try {
                pending.upgraded.complete(plain(link, answer.reason()));
            } catch (IllegalStateException refused) {
                pending.upgraded.completeExceptionally(refused);
            }
            return;
        }
        pending.upgraded.complete(shared(link, pending.handler, pending.file, true));
    }

    private ShmLink shared(final Link link, final LinkHandler handler, final RingFile file, final boolean connecting) {
        final ShmLink shm = new ShmLink(link, handler, file, connecting, maxFrameBytes);
        upgrades.put(link, shm); // from now on a frame on the TCP link is a doorbell
        tcp.leaveToEventLoop(link); // spinners read the rings; doorbells come when none does
        links.add(shm);
        if (spinners.get() > 0) {
            shm.awake();
            if (spinners.get() == 0) { // the last spinner stopped meanwhile, perhaps before it saw this link
                shm.asleep();
            }
        }
        LOG.debug("The link to {} goes through shared memory ({})", link.peerRuntimeId(), file.name());
        if (!link.isOpen() && upgrades.remove(link, shm)) { // closed as it moved: its close may have missed it
            links.remove(shm);
            shm.controlClosed("the link closed while it moved to shared memory");
        }
        return shm;
    }
}
