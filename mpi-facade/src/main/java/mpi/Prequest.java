package mpi;

/**
 * A persistent request ({@code Send_init}, {@code Recv_init}): set up once, started as often as needed with
 * {@link #Start}, each start then waited for or tested as any request.
 */
public class Prequest extends Request {
    /** Starts one send or receive with the arguments given at set-up. */
    interface Starter {
        Request start() throws MPIException;
    }

    private final Starter starter;
    private boolean freed;

    Prequest(final Starter starter) {
        this.starter = starter;
    }

    public void Start() throws MPIException {
        if (freed) {
            throw new MPIException("Start: the persistent request has been freed");
        }
        if (!super.Is_null()) {
            throw new MPIException("Start: the persistent request is still active; wait for it first");
        }
        adopt(starter.start());
    }

    /** A persistent request is inactive between its starts, not null: it is null only once freed. */
    @Override
    public boolean Is_null() {
        return freed;
    }

    @Override
    public void Free() {
        super.Free();
        freed = true;
    }

    public static void Startall(final Prequest[] requests) throws MPIException {
        for (final Prequest r : requests) {
            r.Start();
        }
    }
}
