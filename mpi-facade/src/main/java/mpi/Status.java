package mpi;

/** What a receive got (or a probe found): its source and tag, and how much data. */
public class Status {
    /** The rank that sent the message, in the communicator of the receive. */
    public int source;

    public int tag;
    /** The position of the request in the array given to {@code Waitany}, {@code Testany}, ... */
    public int index;

    private final int elements;
    private final boolean cancelled;

    Status(final int source, final int tag, final int elements, final boolean cancelled) {
        this.source = source;
        this.tag = tag;
        this.elements = elements;
        this.cancelled = cancelled;
        this.index = MPI.UNDEFINED;
    }

    /** Items of {@code datatype} received, or {@link MPI#UNDEFINED} if the data is not a whole number of them. */
    public int Get_count(final Datatype datatype) throws MPIException {
        MPI.checkType(datatype);
        if (datatype.elements == 0) {
            return elements == 0 ? 0 : MPI.UNDEFINED;
        }
        return elements % datatype.elements == 0 ? elements / datatype.elements : MPI.UNDEFINED;
    }

    /** Basic elements received; {@link MPI#UNDEFINED} for a type of no data. */
    public int Get_elements(final Datatype datatype) throws MPIException {
        MPI.checkType(datatype);
        return datatype.elements == 0 ? MPI.UNDEFINED : elements;
    }

    /** Nothing to free: MPJ Express programs call it. */
    public void free() {}

    public boolean Test_cancelled() {
        return cancelled;
    }

    @Override
    public String toString() {
        return "Status[source=" + source + ", tag=" + tag + ", elements=" + elements + (cancelled ? ", cancelled" : "")
                + "]";
    }
}
