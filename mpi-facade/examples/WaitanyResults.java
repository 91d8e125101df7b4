import mpi.MPI;
import mpi.Request;
import mpi.Status;

/**
 * Rank 0 posts a receive for each worker's result in an array of requests whose own place is MPI.REQUEST_NULL, then
 * takes the results with Request.Waitany in whatever order they finish; each worker sums the squares of its share of
 * 1..N. Prints the total, which does not depend on the number of ranks. Run: bin/mpjrun -np 4 -cp DIR WaitanyResults
 */
public class WaitanyResults {
    static final long N = 3_000_000;

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.Rank();
        int size = MPI.COMM_WORLD.Size();
        long mine = sumOfSquares(rank, size);
        if (rank == 0) {
            long[][] results = new long[size][1];
            Request[] requests = new Request[size];
            requests[0] = MPI.REQUEST_NULL; // rank 0's own share needs no message
            for (int w = 1; w < size; w++) {
                requests[w] = MPI.COMM_WORLD.Irecv(results[w], 0, 1, MPI.LONG, w, 0);
            }
            long total = mine;
            for (int left = size - 1; left > 0; left--) {
                Status s = Request.Waitany(requests); // the finished request becomes null: it is not found again
                total += results[s.index][0];
            }
            Status none = Request.Waitany(requests);
            System.out.println("all " + size + " shares in; Waitany over null requests gives index "
                + (none.index == MPI.UNDEFINED ? "MPI.UNDEFINED" : String.valueOf(none.index)));
            System.out.println("sum of squares of 1.." + N + " = " + total);
        } else {
            MPI.COMM_WORLD.Send(new long[] {mine}, 0, 1, MPI.LONG, 0, 0);
        }
        MPI.Finalize();
    }

    /** The squares of the numbers of 1..N that fall to {@code rank}: every size-th one, from rank + 1. */
    static long sumOfSquares(int rank, int size) {
        long sum = 0;
        for (long i = rank + 1; i <= N; i += size) {
            sum += i * i;
        }
        return sum;
    }
}
