import java.util.Arrays;
import mpi.Cartcomm;
import mpi.MPI;
import mpi.ShiftParms;

/**
 * Jacobi iterations for Laplace's equation on a square, its top edge held at 1 and the others at 0: the rows are
 * split among the ranks of a one-dimensional Cartesian communicator, and each step exchanges the border rows with
 * the neighbours found by Shift. Prints the largest change of the last step and the value at the centre, which do
 * not depend on the number of ranks. Run: bin/mpjrun -np 4 -cp DIR Jacobi [n] [steps]
 */
public class Jacobi {
    public static void main(String[] args) throws Exception {
        String[] own = MPI.Init(args);
        int n = own.length > 0 ? Integer.parseInt(own[0]) : 64;
        int steps = own.length > 1 ? Integer.parseInt(own[1]) : 500;
        int size = MPI.COMM_WORLD.Size();
        Cartcomm line = MPI.COMM_WORLD.Create_cart(new int[] {size}, new boolean[] {false}, false);
        int rank = line.Rank();
        ShiftParms neighbours = line.Shift(0, 1);

        // Interior rows 1..n of the (n+2) x (n+2) grid, in blocks; rows 0 and rows+1 are the halo.
        int first = 1 + rank * n / size;
        int rows = 1 + (rank + 1) * n / size - first;
        double[][] u = new double[rows + 2][n + 2];
        double[][] next = new double[rows + 2][n + 2];
        if (rank == 0) {
            Arrays.fill(u[0], 1.0);
            Arrays.fill(next[0], 1.0);
        }
        double[] change = new double[1];
        for (int step = 0; step < steps; step++) {
            // Up: my first row to the rank above, its last row into my top halo; then down, the same way round.
            line.Sendrecv(u[1], 0, n + 2, MPI.DOUBLE, neighbours.rank_source, 1,
                u[rows + 1], 0, n + 2, MPI.DOUBLE, neighbours.rank_dest, 1);
            line.Sendrecv(u[rows], 0, n + 2, MPI.DOUBLE, neighbours.rank_dest, 2,
                u[0], 0, n + 2, MPI.DOUBLE, neighbours.rank_source, 2);
            double local = 0;
            for (int i = 1; i <= rows; i++) {
                for (int j = 1; j <= n; j++) {
                    next[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]);
                    local = Math.max(local, Math.abs(next[i][j] - u[i][j]));
                }
            }
            double[][] t = u;
            u = next;
            next = t;
            line.Allreduce(new double[] {local}, 0, change, 0, 1, MPI.DOUBLE, MPI.MAX);
        }
        int centre = (n + 1) / 2;
        double[] mine = {centre >= first && centre < first + rows ? u[centre - first + 1][centre] : -1};
        double[] value = new double[1];
        line.Reduce(mine, 0, value, 0, 1, MPI.DOUBLE, MPI.MAX, 0);
        if (rank == 0) {
            System.out.printf("Jacobi %dx%d, %d steps: largest change %.12e, centre %.12f%n", n, n, steps, change[0],
                value[0]);
        }
        MPI.Finalize();
    }
}
