package mpi;

import java.nio.ByteBuffer;
import org.troupe.mpi.fabric.Fabric;
import org.troupe.mpi.fabric.Kind;
import org.troupe.mpi.fabric.RankBinding;

/**
 * The MPI environment of this rank: {@link #Init}, {@link #Finalize}, the predefined communicators, datatypes,
 * operations and constants. Under {@code bin/mpjrun} each rank has its own copy of this class (its own class
 * loader), so these statics are per rank; a program started on its own is a job of one rank.
 */
public class MPI {
    // The integer constants have MPJ Express's values, which programs may have written out (a rank compared with -1).
    public static final int ANY_SOURCE = Fabric.ANY_SOURCE;
    public static final int ANY_TAG = Fabric.ANY_TAG;
    /** A rank that sends and receives nothing: an operation with it completes at once. */
    public static final int PROC_NULL = -3;

    public static final int UNDEFINED = -1;
    /**
     * Keys of the predefined attributes, for {@link Comm#Attr_get}: the largest tag ({@link Integer#MAX_VALUE}),
     * the host rank, the rank that may do I/O. As in mpiJava and MPJ Express, TAG_UB is the key, not the value.
     */
    public static final int TAG_UB = 0;

    public static final int HOST = 1;
    public static final int IO = 2;

    public static final int IDENT = 0;
    public static final int CONGRUENT = 3;
    public static final int SIMILAR = 1;
    public static final int UNEQUAL = 2;
    /** What {@link Comm#Topo_test} says of a graph or a Cartesian communicator. */
    public static final int GRAPH = 1;

    public static final int CART = 2;
    /** Bytes a buffered send takes in the attached buffer besides its data. */
    public static final int BSEND_OVERHEAD = 64;
    /** MPJ Express's names: what a send takes besides its data (a buffered one's), and a receive (nothing). */
    public static final int SEND_OVERHEAD = BSEND_OVERHEAD;

    public static final int RECV_OVERHEAD = 0;
    /** Thread levels ({@link #initThread}, {@link #queryThread}): every level is given, up to THREAD_MULTIPLE. */
    public static final int THREAD_SINGLE = 1;

    public static final int THREAD_FUNNELED = 2;
    public static final int THREAD_SERIALIZED = 3;
    public static final int THREAD_MULTIPLE = 4;
    /** The processors this JVM may use. */
    public static final int NUM_OF_PROCESSORS = Runtime.getRuntime().availableProcessors();

    public static final Datatype BYTE = new Datatype(Kind.BYTE, 1, "MPI.BYTE");
    public static final Datatype CHAR = new Datatype(Kind.CHAR, 1, "MPI.CHAR");
    public static final Datatype SHORT = new Datatype(Kind.SHORT, 1, "MPI.SHORT");
    public static final Datatype BOOLEAN = new Datatype(Kind.BOOLEAN, 1, "MPI.BOOLEAN");
    public static final Datatype INT = new Datatype(Kind.INT, 1, "MPI.INT");
    public static final Datatype LONG = new Datatype(Kind.LONG, 1, "MPI.LONG");
    public static final Datatype FLOAT = new Datatype(Kind.FLOAT, 1, "MPI.FLOAT");
    public static final Datatype DOUBLE = new Datatype(Kind.DOUBLE, 1, "MPI.DOUBLE");
    /**
     * Objects of the program's classes (and the JDK's value classes, primitive arrays of any dimension among them):
     * a buffer is an {@code Object[]}, each message encoded by Troupe's serializers and decoded by the receiver.
     */
    public static final Datatype OBJECT = new Datatype(Kind.OBJECT, 1, "MPI.OBJECT");
    /** Bytes written by {@link Comm#Pack}, to send and read back with {@link Comm#Unpack}. */
    public static final Datatype PACKED = new Datatype(Kind.BYTE, 1, "MPI.PACKED");
    /** (value, index) pairs for {@link #MAXLOC} and {@link #MINLOC}. */
    public static final Datatype SHORT2 = new Datatype(Kind.SHORT, 2, "MPI.SHORT2");

    public static final Datatype INT2 = new Datatype(Kind.INT, 2, "MPI.INT2");
    public static final Datatype LONG2 = new Datatype(Kind.LONG, 2, "MPI.LONG2");
    public static final Datatype FLOAT2 = new Datatype(Kind.FLOAT, 2, "MPI.FLOAT2");
    public static final Datatype DOUBLE2 = new Datatype(Kind.DOUBLE, 2, "MPI.DOUBLE2");
    /** Markers of {@link Datatype#Struct}: the lower and upper bound of an item, where it is not its data's. */
    public static final Datatype LB = Datatype.marker("MPI.LB");

    public static final Datatype UB = Datatype.marker("MPI.UB");

    public static final Op MAX = new Op(Op.Predefined.MAX);
    public static final Op MIN = new Op(Op.Predefined.MIN);
    public static final Op SUM = new Op(Op.Predefined.SUM);
    public static final Op PROD = new Op(Op.Predefined.PROD);
    public static final Op LAND = new Op(Op.Predefined.LAND);
    public static final Op BAND = new Op(Op.Predefined.BAND);
    public static final Op LOR = new Op(Op.Predefined.LOR);
    public static final Op BOR = new Op(Op.Predefined.BOR);
    public static final Op LXOR = new Op(Op.Predefined.LXOR);
    public static final Op BXOR = new Op(Op.Predefined.BXOR);
    public static final Op MAXLOC = new Op(Op.Predefined.MAXLOC);
    public static final Op MINLOC = new Op(Op.Predefined.MINLOC);

    /**
     * The request of no operation, to fill a request array's unused places: the {@code Wait*} and {@code Test*}
     * families skip it, {@link Request#Is_null} is true of it.
     */
    public static final Request REQUEST_NULL = new Request();
    /** The group of no rank. */
    public static final Group GROUP_EMPTY = new Group(new int[0]);
    /** The null handles, for programs that fill or compare with them: no call takes them. */
    public static final Group GROUP_NULL = new Group(new int[0]);

    public static final Comm COMM_NULL = Intracomm.freed();
    public static final Datatype NULL = Datatype.marker("MPI.NULL");
    /** The status of a null request: source {@link #ANY_SOURCE}, tag {@link #ANY_TAG}, no data. */
    public static final Status EMPTY_STATUS = new Status(ANY_SOURCE, ANY_TAG, 0, false);
    /** Every communicator's error handler at first; see {@link Errhandler}. */
    public static final Errhandler ERRORS_ARE_FATAL = new Errhandler("MPI.ERRORS_ARE_FATAL");

    public static final Errhandler ERRORS_RETURN = new Errhandler("MPI.ERRORS_RETURN");

    /** Where this rank is: the launcher's binding, or a job of one for a program started on its own. */
    private static final RankBinding BINDING =
            RankBinding.current() != null ? RankBinding.current() : new RankBinding(new Fabric(1), 0);

    /** All ranks of the job; usable once {@link #Init} has returned. */
    public static final Intracomm COMM_WORLD =
            new Intracomm(Fabric.WORLD_CONTEXT, identity(BINDING.fabric().size()), BINDING.rank());
    /** This rank alone. */
    public static final Intracomm COMM_SELF = new Intracomm(Fabric.SELF_CONTEXT, new int[] {BINDING.rank()}, 0);

    /** This rank's state: set by Init. */
    private static volatile RankState state;

    private static volatile boolean finalized;

    private static volatile Thread mainThread;

    /** Per rank: where it is in the job, and its buffered sends' space. */
    static final class RankState {
        final Fabric fabric;
        final int worldRank;
        final String processorName;
        private ByteBuffer attached;
        private long bsendUsed;
        /** Which attached buffer a buffered send took its room in: its release counts only against that one. */
        private int generation;

        RankState(final Fabric fabric, final int worldRank, final String processorName) {
            this.fabric = fabric;
            this.worldRank = worldRank;
            this.processorName = processorName;
        }

        /** Takes room for a buffered send of {@code bytes}, or says why there is none; returns the buffer's generation. */
        synchronized int reserve(final long bytes) throws MPIException {
            if (attached == null) {
                throw new MPIException("Bsend: no buffer is attached; attach one with MPI.Buffer_attach (data plus"
                        + " MPI.BSEND_OVERHEAD bytes per pending message)");
            }
            if (bsendUsed + bytes > attached.capacity()) {
                throw new MPIException("Bsend: the attached buffer of " + attached.capacity() + " bytes has "
                        + (attached.capacity() - bsendUsed) + " free, and this message needs " + bytes
                        + " (its data plus MPI.BSEND_OVERHEAD); attach a larger buffer");
            }
            bsendUsed += bytes;
            return generation;
        }

        synchronized void release(final long bytes, final int ofGeneration) {
            if (ofGeneration == generation) {
                bsendUsed -= bytes;
            }
        }
    }

    MPI() {}

    /** Starts MPI in this rank; returns the program's own arguments. */
    public static String[] Init(final String[] args) throws MPIException {
        if (state != null || finalized) {
            throw new MPIException("MPI.Init was called twice in this rank");
        }
        state = new RankState(BINDING.fabric(), BINDING.rank(), BINDING.processorName());
        BINDING.fabric().started(BINDING.rank());
        mainThread = Thread.currentThread();
        // A message to itself loads and links the classes of the message path, which a first message to another
        // rank would otherwise wait for (milliseconds in a fresh JVM).
        final byte[] one = new byte[1];
        try {
            COMM_SELF.Sendrecv(one, 0, 1, BYTE, 0, 0, one, 0, 1, BYTE, 0, 0);
        } catch (MPIException e) {
            // the job was aborted already: the program's first call says so
        }
        return args == null ? new String[0] : args.clone();
    }

    /**
     * Starts MPI as {@link #Init} does, as MPJ Express spells it; every thread level is provided (see
     * {@link #queryThread}), so {@code required} and {@code provided} change nothing.
     */
    public static String[] initThread(final int required, final int provided, final String[] args) throws MPIException {
        return Init(args);
    }

    /** {@link #THREAD_MULTIPLE}: several threads of a rank may call MPI at once. */
    public static int queryThread() {
        return THREAD_MULTIPLE;
    }

    /** Whether this thread is the one that called {@link #Init} (or {@link #initThread}). */
    public static boolean isMainThread() {
        return Thread.currentThread() == mainThread;
    }

    /** Sets {@link #COMM_WORLD}'s error handler (MPJ Express's form); see {@link Errhandler}. */
    public static void Errorhandler_set(final Errhandler handler) throws MPIException {
        COMM_WORLD.Errhandler_set(handler);
    }

    public static Errhandler Errorhandler_get() throws MPIException {
        return COMM_WORLD.Errhandler_get();
    }

    /** Ends MPI in this rank; the other ranks go on. No MPI call may follow. */
    public static void Finalize() throws MPIException {
        final RankState s = state();
        finalized = true;
        s.fabric.finalized(s.worldRank);
    }

    public static boolean Initialized() {
        return state != null;
    }

    /** Seconds since an arbitrary origin, to nanosecond resolution. */
    public static double Wtime() {
        return System.nanoTime() / 1e9;
    }

    /** The resolution of {@link #Wtime}, in seconds. */
    public static double Wtick() {
        return 1e-9;
    }

    public static String Get_processor_name() throws MPIException {
        return state().processorName;
    }

    /** Gives buffered sends ({@code Bsend}, {@code Ibsend}) room: its capacity bounds the data they may hold. */
    public static void Buffer_attach(final ByteBuffer buffer) throws MPIException {
        final RankState s = state();
        synchronized (s) {
            if (s.attached != null) {
                throw new MPIException("Buffer_attach: a buffer is attached already; detach it first");
            }
            s.attached = buffer;
        }
    }

    /**
     * Takes the attached buffer back. Buffered messages already sent hold copies of their own, so they are not
     * affected, and their room is free at once: a buffer attached next starts empty.
     */
    public static ByteBuffer Buffer_detach() throws MPIException {
        final RankState s = state();
        synchronized (s) {
            final ByteBuffer b = s.attached;
            s.attached = null;
            s.bsendUsed = 0;
            s.generation++;
            return b;
        }
    }

    /** Where this rank is, as found when this class was loaded. */
    static RankBinding binding() {
        return BINDING;
    }

    /** This rank's state, or why there is none. */
    static RankState state() throws MPIException {
        final RankState s = state;
        if (s == null) {
            throw new MPIException("MPI.Init has not been called in this rank");
        }
        if (finalized) {
            throw new MPIException("MPI.Finalize has been called in this rank: no MPI call may follow it");
        }
        return s;
    }

    static void checkType(final Datatype type) throws MPIException {
        if (type == null) {
            throw new MPIException("the datatype is null");
        }
        if (type.kind == null) {
            throw new MPIException(type + " is not a type of data"
                    + (type == NULL ? " (the null datatype)" : " (it marks a bound in Datatype.Struct)"));
        }
    }

    private static int[] identity(final int size) {
        final int[] ranks = new int[size];
        for (int i = 0; i < size; i++) {
            ranks[i] = i;
        }
        return ranks;
    }
}
