import java.util.Arrays;
import mpi.MPI;
import mpi.Status;

/**
 * Master and workers: rank 0 hands out the rows of a Mandelbrot picture one at a time to whichever worker asks,
 * the workers compute them, and rank 0 prints the picture. With one rank, rank 0 computes it alone.
 * Run: bin/mpjrun -np 4 -cp DIR Mandelbrot
 */
public class Mandelbrot {
    static final int WIDTH = 72;
    static final int HEIGHT = 28;
    static final int MAX_ITERATIONS = 500;
    static final int WORK = 1;
    static final int RESULT = 2;
    static final int STOP = 3;

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.Rank();
        int size = MPI.COMM_WORLD.Size();
        if (rank == 0) {
            int[][] picture = new int[HEIGHT][];
            if (size == 1) {
                for (int y = 0; y < HEIGHT; y++) {
                    picture[y] = row(y);
                }
            } else {
                master(picture, size);
            }
            print(picture);
        } else {
            worker();
        }
        MPI.Finalize();
    }

    static void master(int[][] picture, int size) throws Exception {
        int next = 0;
        int busy = 0;
        for (int w = 1; w < size; w++) { // a first row for every worker, or a stop if there is none left
            if (next < HEIGHT) {
                MPI.COMM_WORLD.Send(new int[] {next++}, 0, 1, MPI.INT, w, WORK);
                busy++;
            } else {
                MPI.COMM_WORLD.Send(new int[0], 0, 0, MPI.INT, w, STOP);
            }
        }
        int[] result = new int[WIDTH + 1];
        while (busy > 0) {
            Status s = MPI.COMM_WORLD.Recv(result, 0, WIDTH + 1, MPI.INT, MPI.ANY_SOURCE, RESULT);
            picture[result[0]] = Arrays.copyOfRange(result, 1, WIDTH + 1);
            if (next < HEIGHT) {
                MPI.COMM_WORLD.Send(new int[] {next++}, 0, 1, MPI.INT, s.source, WORK);
            } else {
                MPI.COMM_WORLD.Send(new int[0], 0, 0, MPI.INT, s.source, STOP);
                busy--;
            }
        }
    }

    static void worker() throws Exception {
        int[] y = new int[1];
        while (true) {
            Status s = MPI.COMM_WORLD.Recv(y, 0, 1, MPI.INT, 0, MPI.ANY_TAG);
            if (s.tag == STOP) {
                return;
            }
            int[] result = new int[WIDTH + 1];
            result[0] = y[0];
            System.arraycopy(row(y[0]), 0, result, 1, WIDTH);
            MPI.COMM_WORLD.Send(result, 0, WIDTH + 1, MPI.INT, 0, RESULT);
        }
    }

    /** Iterations before each point of row y escapes (MAX_ITERATIONS if it does not). */
    static int[] row(int y) {
        int[] counts = new int[WIDTH];
        double ci = -1.2 + 2.4 * y / (HEIGHT - 1);
        for (int x = 0; x < WIDTH; x++) {
            double cr = -2.1 + 2.8 * x / (WIDTH - 1);
            double zr = 0;
            double zi = 0;
            int n = 0;
            while (n < MAX_ITERATIONS && zr * zr + zi * zi <= 4) {
                double t = zr * zr - zi * zi + cr;
                zi = 2 * zr * zi + ci;
                zr = t;
                n++;
            }
            counts[x] = n;
        }
        return counts;
    }

    static void print(int[][] picture) {
        String shades = " .:-=+*#%@";
        long checksum = 0;
        for (int[] row : picture) {
            StringBuilder line = new StringBuilder();
            for (int n : row) {
                line.append(n == MAX_ITERATIONS ? '@' : shades.charAt(Math.min(shades.length() - 2, n / 3)));
                checksum = 31 * checksum + n;
            }
            System.out.println(line);
        }
        System.out.println("checksum " + checksum);
    }
}
