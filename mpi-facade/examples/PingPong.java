import mpi.MPI;

/**
 * Ranks 0 and 1 send a message back and forth; rank 0 prints, for sizes from 1 byte to 1 MiB, the time of half a
 * round trip and the bandwidth. Run with two ranks: bin/mpjrun -np 2 -cp DIR PingPong [rounds]
 */
public class PingPong {
    public static void main(String[] args) throws Exception {
        String[] own = MPI.Init(args);
        int rounds = own.length > 0 ? Integer.parseInt(own[0]) : 1000;
        int rank = MPI.COMM_WORLD.Rank();
        if (MPI.COMM_WORLD.Size() != 2) {
            throw new IllegalArgumentException("PingPong runs on 2 ranks, not " + MPI.COMM_WORLD.Size());
        }
        for (int bytes = 1; bytes <= 1 << 20; bytes *= 16) {
            byte[] buffer = new byte[bytes];
            MPI.COMM_WORLD.Barrier();
            double start = MPI.Wtime();
            for (int i = 0; i < rounds; i++) {
                if (rank == 0) {
                    MPI.COMM_WORLD.Send(buffer, 0, bytes, MPI.BYTE, 1, 0);
                    MPI.COMM_WORLD.Recv(buffer, 0, bytes, MPI.BYTE, 1, 0);
                } else {
                    MPI.COMM_WORLD.Recv(buffer, 0, bytes, MPI.BYTE, 0, 0);
                    MPI.COMM_WORLD.Send(buffer, 0, bytes, MPI.BYTE, 0, 0);
                }
            }
            double half = (MPI.Wtime() - start) / rounds / 2;
            if (rank == 0) {
                System.out.printf("%8d bytes: %9.2f us  %9.1f MB/s%n", bytes, half * 1e6, bytes / half / 1e6);
            }
        }
        MPI.Finalize();
    }
}
