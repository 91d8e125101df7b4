import mpi.MPI;
import mpi.Status;

/**
 * Rank 0 greets every other rank; each answers with a greeting of its own, which rank 0 takes in whatever order
 * they come. Run with three ranks: bin/mpjrun -np 3 -cp DIR SendMessages
 */
public class SendMessages {
    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.Rank();
        int size = MPI.COMM_WORLD.Size();
        int tag = 50;
        if (rank == 0) {
            for (int dest = 1; dest < size; dest++) {
                char[] message = ("Hello rank " + dest + ", from rank 0").toCharArray();
                MPI.COMM_WORLD.Send(message, 0, message.length, MPI.CHAR, dest, tag);
            }
            for (int i = 1; i < size; i++) {
                char[] reply = new char[100];
                Status status = MPI.COMM_WORLD.Recv(reply, 0, reply.length, MPI.CHAR, MPI.ANY_SOURCE, tag);
                System.out.println("rank 0 got from rank " + status.source + ": "
                    + new String(reply, 0, status.Get_count(MPI.CHAR)));
            }
        } else {
            char[] message = new char[100];
            Status status = MPI.COMM_WORLD.Recv(message, 0, message.length, MPI.CHAR, 0, tag);
            System.out.println("rank " + rank + " got: " + new String(message, 0, status.Get_count(MPI.CHAR)));
            char[] reply = ("Greetings from rank " + rank).toCharArray();
            MPI.COMM_WORLD.Send(reply, 0, reply.length, MPI.CHAR, 0, tag);
        }
        MPI.Finalize();
    }
}
