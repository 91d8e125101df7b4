package org.troupe.mpi.run;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.troupe.core.spi.Endpoint;
import org.troupe.core.spi.EndpointAddress;
import org.troupe.mpi.fabric.BlockedCall;

/**
 * What mpjrun's launcher ({@link JvmJob}) and the JVMs of its ranks ({@link JvmRank}) say to each other, one record
 * per message. A message is one endpoint frame: its header is the message's kind, one byte (the ranks' own fabric
 * frames have longer headers, which is how a rank tells the two apart); its payload is text, fields separated by
 * newlines ({@code \n}), an endpoint's address as {@code runtimeId \t runtimeAddress \t id}:
 *
 * <pre>
 *   rank -> launcher                               launcher -> rank
 *   1  HELLO         rank \n address               2  TABLE    (address \n)* one per rank, in rank order
 *   3  DONE          rank \n status \n failure     4  ABORT    why
 *   6  ABORTED       rank \n code \n why          5  RELEASE  (empty)
 *   7  OUTPUT        rank \n bytes
 *   8  ERROR_OUTPUT  rank \n bytes
 *   9  FINALIZED     rank \n finalized
 *   10 EXITED        rank \n status \n where
 *   11 BLOCKED       rank \n (call \t peer \t context \t tag \t elements \t millis \n)*
 * </pre>
 *
 * The launcher and its ranks always run the same version, so no version is said. {@link #decode} rejects a frame
 * that is not one of these with a {@link MalformedMessageException}.
 */
sealed interface LauncherMessage {
    byte HELLO = 1;
    byte TABLE = 2;
    byte DONE = 3;
    byte ABORT = 4;
    byte RELEASE = 5;
    byte ABORTED = 6;
    byte OUTPUT = 7;
    byte ERROR_OUTPUT = 8;
    byte FINALIZED = 9;
    byte EXITED = 10;
    byte BLOCKED = 11;
    /** A launcher message's header: its kind alone. */
    int HEADER_LENGTH = 1;

    /** The kind byte, the frame's header. */
    byte kind();

    /** The frame's payload, a new buffer. */
    ByteBuffer payload();

    /** The frame's header, a new buffer. */
    default ByteBuffer header() {
        return ByteBuffer.wrap(new byte[] {kind()});
    }

    /** Sends this message from {@code from} to {@code to}, unbatched (a failure to send is the caller's). */
    default void send(final Endpoint from, final EndpointAddress to) {
        from.send(to, header(), payload(), false);
    }

    /** Whether a frame with this header is a launcher message (any other is the ranks' fabric's). */
    static boolean isLauncherMessage(final ByteBuffer header) {
        return header.remaining() == HEADER_LENGTH;
    }

    /**
     * The message a frame carries; reads neither buffer's position.
     *
     * @throws MalformedMessageException when the header is not a known kind or the payload does not parse
     */
    static LauncherMessage decode(final ByteBuffer header, final ByteBuffer payload) {
        if (!isLauncherMessage(header)) {
            throw new MalformedMessageException("a header of " + header.remaining() + " bytes, not " + HEADER_LENGTH);
        }
        final byte kind = header.get(header.position());
        final byte[] bytes = new byte[payload.remaining()];
        payload.get(payload.position(), bytes);
        return switch (kind) {
            case HELLO -> Hello.decode(bytes);
            case TABLE -> Table.decode(bytes);
            case DONE -> Done.decode(bytes);
            case ABORT -> Abort.decode(bytes);
            case RELEASE -> Release.decode(bytes);
            case ABORTED -> Aborted.decode(bytes);
            case OUTPUT, ERROR_OUTPUT -> Output.decode(bytes, kind == ERROR_OUTPUT);
            case FINALIZED -> Finalized.decode(bytes);
            case EXITED -> Exited.decode(bytes);
            case BLOCKED -> Blocked.decode(bytes);
            default -> throw new MalformedMessageException("unknown kind " + kind);
        };
    }

    /** A message a rank sends: it names the rank. */
    sealed interface FromRank extends LauncherMessage {
        int rank();
    }

    /** A message the launcher sends to each rank. */
    sealed interface ToRank extends LauncherMessage {}

    // --- rank -> launcher ---

    /** The rank's JVM has started: its endpoint is {@code endpoint}. */
    record Hello(int rank, EndpointAddress endpoint) implements FromRank {
        @Override
        public byte kind() {
            return HELLO;
        }

        @Override
        public ByteBuffer payload() {
            return utf8(rank + "\n" + format(endpoint));
        }

        static Hello decode(final byte[] bytes) {
            return new Hello(rankOf(bytes, HELLO), address(text(bytes, afterRank(bytes, HELLO)), HELLO));
        }
    }

    /**
     * The rank's main has ended, with {@code status} (0: it returned), and why it failed ({@code ""} if it did not),
     * its stack trace's lines included.
     */
    record Done(int rank, int status, String failure) implements FromRank {
        @Override
        public byte kind() {
            return DONE;
        }

        @Override
        public ByteBuffer payload() {
            return utf8(rank + "\n" + status + "\n" + failure);
        }

        static Done decode(final byte[] bytes) {
            final String[] fields = text(bytes, afterRank(bytes, DONE)).split("\n", 2);
            if (fields.length < 2) {
                throw new MalformedMessageException("DONE: truncated after its status");
            }
            return new Done(rankOf(bytes, DONE), number(fields[0], "status", DONE), fields[1]);
        }
    }

    /** The rank called MPI.Finalize: its JVM may end from now on (a System.exit(0) after it is a normal end). */
    record Finalized(int rank) implements FromRank {
        private static final String TEXT = "finalized";

        @Override
        public byte kind() {
            return FINALIZED;
        }

        @Override
        public ByteBuffer payload() {
            return utf8(rank + "\n" + TEXT);
        }

        static Finalized decode(final byte[] bytes) {
            final String text = text(bytes, afterRank(bytes, FINALIZED));
            if (!text.equals(TEXT)) {
                throw new MalformedMessageException("FINALIZED: '" + text + "', not '" + TEXT + "'");
            }
            return new Finalized(rankOf(bytes, FINALIZED));
        }
    }

    /**
     * A rank of the sender's JVM ended the job, whatever that rank does next: the rank {@code rank} called
     * Abort({@code errorcode}), or, with a null errorcode, the JVM found the job cannot go on ({@code why}).
     */
    record Aborted(int rank, Integer errorcode, String why) implements FromRank {
        @Override
        public byte kind() {
            return ABORTED;
        }

        @Override
        public ByteBuffer payload() {
            return utf8(rank + "\n" + (errorcode == null ? "-" : errorcode) + "\n" + why);
        }

        static Aborted decode(final byte[] bytes) {
            final String[] fields = text(bytes, afterRank(bytes, ABORTED)).split("\n", 2);
            if (fields.length < 2) {
                throw new MalformedMessageException("ABORTED: truncated after its error code");
            }
            return new Aborted(
                    rankOf(bytes, ABORTED),
                    fields[0].equals("-") ? null : number(fields[0], "error code", ABORTED),
                    fields[1]);
        }
    }

    /** A deployed rank's JVM is ending by System.exit({@code status}), called {@code where} (a stack frame, or ""). */
    record Exited(int rank, int status, String where) implements FromRank {
        @Override
        public byte kind() {
            return EXITED;
        }

        @Override
        public ByteBuffer payload() {
            return utf8(rank + "\n" + status + "\n" + where);
        }

        static Exited decode(final byte[] bytes) {
            final String[] fields = text(bytes, afterRank(bytes, EXITED)).split("\n", 2);
            return new Exited(
                    rankOf(bytes, EXITED),
                    number(fields[0].trim(), "status", EXITED),
                    fields.length > 1 ? fields[1] : "");
        }
    }

    /**
     * The calls the rank has been blocked in for a second or more, now (none: it no longer is), each with how long it
     * has been, which the launcher turns into a start by its own clock ({@link HangReport}).
     */
    record Blocked(int rank, List<BlockedCall> calls) implements FromRank {
        @Override
        public byte kind() {
            return BLOCKED;
        }

        @Override
        public ByteBuffer payload() {
            final long now = System.nanoTime();
            final StringBuilder s = new StringBuilder().append(rank).append('\n');
            for (final BlockedCall c : calls) {
                s.append(c.call()).append('\t').append(c.peer()).append('\t').append(c.context());
                s.append('\t').append(c.tag()).append('\t').append(c.elements()).append('\t');
                s.append(TimeUnit.NANOSECONDS.toMillis(now - c.sinceNanos())).append('\n');
            }
            return utf8(s.toString());
        }

        static Blocked decode(final byte[] bytes) {
            final long now = System.nanoTime();
            final int rank = rankOf(bytes, BLOCKED);
            final String text = text(bytes, afterRank(bytes, BLOCKED));
            final List<BlockedCall> calls = new ArrayList<>();
            for (final String line : text.lines().toList()) {
                final String[] f = line.split("\t", -1);
                if (f.length != 6) {
                    throw new MalformedMessageException("BLOCKED: a call of " + f.length + " fields, not 6");
                }
                final BlockedCall.Call call;
                try {
                    call = BlockedCall.Call.valueOf(f[0]);
                } catch (IllegalArgumentException e) {
                    throw new MalformedMessageException("BLOCKED: no call " + f[0]);
                }
                calls.add(new BlockedCall(
                        rank,
                        call,
                        signed(f[1], "peer"),
                        signed(f[2], "context"),
                        signed(f[3], "tag"),
                        signed(f[4], "elements"),
                        now - TimeUnit.MILLISECONDS.toNanos(signed(f[5], "millis"))));
            }
            return new Blocked(rank, calls);
        }

        private static int signed(final String s, final String what) {
            try {
                return Integer.parseInt(s);
            } catch (NumberFormatException e) {
                throw new MalformedMessageException("BLOCKED: " + what + " '" + s + "' is not a number");
            }
        }
    }

    /** Bytes a deployed rank wrote to its standard output, or to its standard error if {@code error}. */
    record Output(int rank, boolean error, byte[] bytes) implements FromRank {
        @Override
        public byte kind() {
            return error ? ERROR_OUTPUT : OUTPUT;
        }

        @Override
        public ByteBuffer payload() {
            final byte[] head = (rank + "\n").getBytes(StandardCharsets.US_ASCII);
            return ByteBuffer.allocate(head.length + bytes.length)
                    .put(head)
                    .put(bytes)
                    .flip();
        }

        static Output decode(final byte[] bytes, final boolean error) {
            final byte kind = error ? ERROR_OUTPUT : OUTPUT;
            return new Output(
                    rankOf(bytes, kind), error, Arrays.copyOfRange(bytes, afterRank(bytes, kind), bytes.length));
        }

        @Override
        public boolean equals(final Object o) {
            return o instanceof Output other
                    && other.rank == rank
                    && other.error == error
                    && Arrays.equals(other.bytes, bytes);
        }

        @Override
        public int hashCode() {
            return (rank * 31 + Boolean.hashCode(error)) * 31 + Arrays.hashCode(bytes);
        }

        @Override
        public String toString() {
            return "Output[rank=" + rank + ", error=" + error + ", " + bytes.length + " bytes]";
        }
    }

    // --- launcher -> rank ---

    /** Where every rank's endpoint is, in rank order: the ranks may link. */
    record Table(List<EndpointAddress> ranks) implements ToRank {
        public Table {
            ranks = List.copyOf(ranks);
        }

        @Override
        public byte kind() {
            return TABLE;
        }

        @Override
        public ByteBuffer payload() {
            final StringBuilder b = new StringBuilder();
            for (final EndpointAddress a : ranks) {
                b.append(format(a)).append('\n');
            }
            return utf8(b.toString());
        }

        static Table decode(final byte[] bytes) {
            return new Table(
                    text(bytes, 0).lines().map(line -> address(line, TABLE)).toList());
        }
    }

    /** The job was aborted, {@code why}: the rank's pending and later MPI calls fail. */
    record Abort(String why) implements ToRank {
        @Override
        public byte kind() {
            return ABORT;
        }

        @Override
        public ByteBuffer payload() {
            return utf8(why);
        }

        static Abort decode(final byte[] bytes) {
            return new Abort(text(bytes, 0));
        }
    }

    /** Every rank has finished (or the job is over): the rank's JVM may end, nothing it sent is lost now. */
    record Release() implements ToRank {
        @Override
        public byte kind() {
            return RELEASE;
        }

        @Override
        public ByteBuffer payload() {
            return ByteBuffer.allocate(0);
        }

        static Release decode(final byte[] bytes) {
            if (bytes.length != 0) {
                throw new MalformedMessageException("RELEASE: a payload of " + bytes.length + " bytes, not 0");
            }
            return new Release();
        }
    }

    /** A frame that is not a launcher message of this version. */
    final class MalformedMessageException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        MalformedMessageException(final String message) {
            super("malformed launcher message: " + message);
        }
    }

    // --- fields ---

    /** The kind's name, for a message. */
    private static String name(final byte kind) {
        return switch (kind) {
            case HELLO -> "HELLO";
            case TABLE -> "TABLE";
            case DONE -> "DONE";
            case ABORT -> "ABORT";
            case RELEASE -> "RELEASE";
            case ABORTED -> "ABORTED";
            case OUTPUT -> "OUTPUT";
            case ERROR_OUTPUT -> "ERROR_OUTPUT";
            case FINALIZED -> "FINALIZED";
            case EXITED -> "EXITED";
            case BLOCKED -> "BLOCKED";
            default -> "kind " + kind;
        };
    }

    /** Where the payload's text after its rank's line starts. */
    private static int afterRank(final byte[] bytes, final byte kind) {
        // a rank has at most Integer.MAX_VALUE's 10 digits: a longer first line is no rank
        for (int i = 0; i < bytes.length && i <= 10; i++) {
            if (bytes[i] == '\n') {
                return i + 1;
            }
        }
        throw new MalformedMessageException(name(kind) + ": no rank line in a payload of " + bytes.length + " bytes");
    }

    /** The rank a payload starts with: decimal digits, then a newline. */
    private static int rankOf(final byte[] bytes, final byte kind) {
        final String digits = new String(bytes, 0, afterRank(bytes, kind) - 1, StandardCharsets.US_ASCII);
        if (digits.isEmpty() || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new MalformedMessageException(name(kind) + ": the rank '" + digits + "' is not a number");
        }
        return number(digits, "rank", kind);
    }

    private static int number(final String s, final String what, final byte kind) {
        try {
            return Integer.parseInt(s);
        } catch (NumberFormatException e) {
            throw new MalformedMessageException(name(kind) + ": the " + what + " '" + s + "' is not a number");
        }
    }

    private static String text(final byte[] bytes, final int from) {
        return new String(bytes, from, bytes.length - from, StandardCharsets.UTF_8);
    }

    private static ByteBuffer utf8(final String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }

    private static String format(final EndpointAddress a) {
        return a.runtimeId() + "\t" + a.runtimeAddress() + "\t" + a.id();
    }

    private static EndpointAddress address(final String s, final byte kind) {
        final String[] f = s.split("\t", -1);
        if (f.length != 3) {
            throw new MalformedMessageException(
                    name(kind) + ": an address of " + f.length + " fields, not 3: '" + s + "'");
        }
        try {
            return new EndpointAddress(f[0], f[1], Long.parseLong(f[2]));
        } catch (NumberFormatException e) {
            throw new MalformedMessageException(name(kind) + ": the endpoint number '" + f[2] + "' is not a number");
        }
    }
}
